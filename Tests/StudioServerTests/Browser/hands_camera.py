"""The Hands page's camera in headless Chromium with a fake camera (a y4m video made here from a drawn hand,
scripts/camera/drawn_hand.py, since no photograph of a hand ships in the camera venv's packages, and one from a
blank grey image):

- the drawn hand: "Camera" finds the hand; the side and the 21 landmarks the server
  applies (the Hands instrument's frame, what the pad draws and the router plays: mirrored, x = 1 - the image's x)
  and the page's camera view shows equal what `prospero camera --hands --image HAND` gives (landmarks x, y within
  0.03 of the image); the
  router plays a note and the synth holds it; the camera view draws the skeleton; the latency readout (frame
  sent -> hand applied in the server, median and 95th percentile) shows; Stop camera ends the hand;
- the blank video: frames are tracked, no hand is found, nothing plays;
- a denied camera permission gets its clear message.
The script prints `camera: mark NAME T` lines (T: time.monotonic(), the clock the Swift test's render thread
reads) around the phases, so that the test can tell the synth's output level in each. Screenshot: hands-camera.png.

Usage: hands_camera.py URL VENV_PYTHON DRAWN_HAND_SCRIPT PROSPERO SCREENSHOT_DIR"""
import json
import os
import subprocess
import sys
import tempfile
import time

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail

url, venv_python, drawn_hand, prospero, shots = sys.argv[1:6]
work = tempfile.mkdtemp(prefix="prospero-hands-camera-")

# 30 frames at 30 fps (Chromium loops the file), 4:2:0 as the y4m reader wants, 320x240: the largest frame a
# page sends, so the page sends these very pixels (re-encoded as its JPEG).
MAKE_Y4M = r"""
import sys, cv2, numpy
source, out = sys.argv[1], sys.argv[2]
image = numpy.full((240, 320, 3), 128, numpy.uint8) if source == "blank" else cv2.imread(source)
planes = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes()
with open(out, "wb") as f:
    f.write(b"YUV4MPEG2 W320 H240 F30:1 Ip A1:1 C420jpeg\n")
    for _ in range(30):
        f.write(b"FRAME\n" + planes)
"""
# Landmarks x, y may differ from the still image's by this much (0...1 of the image): the page's JPEG, and the
# bridge tracking video (each frame from the last one's landmarks, smoothed) where --image detects afresh.
TOLERANCE = 0.03


def run(args, what):
    done = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, PROSPERO_CAMERA_VENV=os.path.dirname(os.path.dirname(venv_python))))
    if done.returncode != 0:
        fail(f"{what} failed: {done.stderr}")
    return done.stdout


def make_video(source, name):
    path = os.path.join(work, name)
    run([venv_python, "-c", MAKE_Y4M, source, path], f"making {name}")
    return path


def camera_flags(video):
    # No GPU process (as the Hecate camera test): software canvases read a video frame back in ~1 ms.
    return ["--disable-gpu", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}", "--use-fake-ui-for-media-stream"]


def mark(name):
    print(f"camera: mark {name} {time.monotonic():.4f}", flush=True)


def js(driver, expression):
    return driver.execute_script(f"return {expression};")


def playing(driver):
    """The router's notes (the page's frame) and the synth's held notes (its engine snapshot)."""
    return js(driver, "[document.body.dataset.sounding || '', (window.hands.hud.synthNotes || []).length]")


def worst_difference(points, reference):
    return max(abs(points[i] - reference[i]) for i in range(len(reference)))


try:
    hand_png = os.path.join(work, "hand.png")
    run([venv_python, drawn_hand, hand_png], "drawn_hand.py")
    hand_video, blank_video = make_video(hand_png, "hand.y4m"), make_video("blank", "blank.y4m")

    # What the bridge says of the drawing itself.
    printed = run([prospero, "camera", "--hands", "--image", hand_png, "--once", "--json", "--no-send"], "prospero camera --hands --image")
    reference = json.loads(printed.strip().splitlines()[-1]).get("hand")
    if not reference:
        fail(f"--image finds no hand in the drawing: {printed}")
    ref_side, ref_lm = reference["side"], reference["lm"]
    ref_xy = [v for i, v in enumerate(ref_lm) if i % 3 != 2]
    print(f"camera: --image gives a {ref_side} hand ({reference['conf']:.2f} sure), wrist {ref_lm[0]:.4f} {ref_lm[1]:.4f}, "
          f"index tip {ref_lm[24]:.4f} {ref_lm[25]:.4f}", flush=True)

    # ---- The drawn hand ----
    with studio_browser(extra_flags=camera_flags(hand_video)) as driver:
        driver.get(url)
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
        wait_for(lambda: js(driver, "window.hands.state.frets.length") > 0, what="the frets")
        if playing(driver) != ["", 0]:
            fail(f"something plays before the camera: {playing(driver)}")
        if by_testid(driver, "hands-camera").is_displayed():
            fail("the camera panel shows before the camera is on")
        mark("silent")
        time.sleep(1.0)
        mark("tap")
        by_testid(driver, "camera-toggle").click()
        try:
            wait_for(lambda: js(driver, "window.handsCamera.last?.hands?.length ?? 0") > 0, what="the hand found")
        except SystemExit:
            print("camera: the page's camera at the end of the wait:", js(driver,
                  "(c => ({state: c.state, status: c.els.status.textContent, sent: c.sent, skipped: c.skipped, "
                  "video: [c.video.videoWidth, c.video.videoHeight], last: c.last && {seq: c.last.seq, stats: c.last.stats, error: c.last.error}}))(window.handsCamera)"),
                  console_errors(driver), flush=True)
            raise
        if not by_testid(driver, "hands-camera").is_displayed():
            fail("no camera view while the camera is on")
        if by_testid(driver, "camera-toggle").get_attribute("aria-pressed") != "true":
            fail("Camera does not report itself on")
        # The studio's Hands instrument got the hand (its frame, which the pad draws) and plays it.
        wait_for(lambda: len(js(driver, "window.hands.hud.hands")) > 0, what="the hand in the Hands instrument's frame")
        wait_for(lambda: playing(driver)[0] != "" and playing(driver)[1] > 0, what="a note from the router, held by the synth")
        print(f"camera: the router plays {playing(driver)[0]}, the synth holds {playing(driver)[1]} note(s)", flush=True)
        # A still drawing: the values settle; the page's and the server's, read in one script when each holds one hand,
        # equal --image's (on a busy machine the bridge's answers can come later than the hand's lifetime in the router,
        # which then ends it until the next answer: a gap, not a wrong hand).
        seen = []

        def settled():
            page, applied = js(driver, "[window.handsCamera.last.hands, window.hands.hud.hands]")
            if len(page) != 1 or len(applied) != 1:
                return None
            page_xy = [v for i, v in enumerate(page[0]["lm"]) if i % 3 != 2]
            # The pad shows a page camera's hands as a mirror does: x = 1 - the image's x.
            applied_xy = [c for x, y in applied[0]["landmarks"] for c in (1 - x, y)]
            reading = (page[0]["side"], applied[0]["handedness"], worst_difference(page_xy, ref_xy), worst_difference(applied_xy, ref_xy),
                       page[0]["conf"])
            seen[:] = [reading]
            return reading if reading[0] == ref_side and reading[1] == ref_side and max(reading[2], reading[3]) <= TOLERANCE else None

        side, handedness, page_worst, applied_worst, conf = wait_for(
            settled, what=f"a {ref_side} hand on the page and applied, its landmarks within {TOLERANCE} of --image's",
            describe=lambda: f"(page side, applied side, page's worst, applied's worst, confidence) {seen}")
        print(f"camera: the page's landmarks within {page_worst:.4f}, the applied ones within {applied_worst:.4f} of --image's "
              f"(a {side} hand, {conf:.2f} sure; applied as {handedness})", flush=True)
        if by_testid(driver, "hands-camera-hands").get_attribute("data-sides") != ref_side:
            fail(f"the readout says {by_testid(driver, 'hands-camera-hands').text!r}")
        wait_for(lambda: int(by_testid(driver, "hands-camera-canvas").get_attribute("data-frames") or 0) > 10, what="the camera view drawing")
        # The skeleton over the image: the drawn bones' colour where the index finger's middle joint is (mirrored).
        bone = js(driver, """(() => { const c = document.querySelector('[data-testid=hands-camera-canvas]'), lm = window.handsCamera.last.hands[0].lm;
            const x = Math.round((1 - lm[3 * 6]) * c.width), y = Math.round(lm[3 * 6 + 1] * c.height);
            return Array.from(c.getContext('2d').getImageData(x - 1, y - 1, 3, 3).data); })()""")
        if not any(bone[i] == 0xB8 and bone[i + 1] == 0x94 and bone[i + 2] == 0x5C for i in range(0, len(bone), 4)):
            fail(f"no landmark drawn at the index finger's joint: {bone}")
        # The latency readout (frame sent -> hand applied in the server) over 30 hands applied: shown with its median,
        # 95th percentile and drops (its figures are the bench's to judge).
        wait_for(lambda: int(by_testid(driver, "camera-latency").get_attribute("data-count") or 0) >= 30, what="30 hands applied")
        lat = by_testid(driver, "camera-latency")
        if not (lat.text.startswith("latency ") and "median" in lat.text and "p95" in lat.text and "dropped" in lat.text):
            fail(f"the latency readout reads {lat.text!r}")
        driver.execute_script("document.activeElement.blur()")
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(shots, "hands-camera.png"))
        # Frames of at most 320x240, of kind 0x21 (their pacing: camera_pacing.py).
        size = js(driver, "[window.handsCamera.grab.width, window.handsCamera.grab.height, window.handsCamera.kind]")
        if size[0] > 320 or size[1] > 240 or size[2] != 0x21:
            fail(f"the page sends {size}: at most 320x240, kind 0x21")
        mark("playing")
        # Stop: the hand ends (the page's empty frame ends it in the server), nothing plays.
        by_testid(driver, "camera-toggle").click()
        wait_for(lambda: len(js(driver, "window.hands.hud.hands")) == 0 and playing(driver)[0] == "", what="the hand and its note ended on Stop camera")
        mark("stopped")
        if by_testid(driver, "hands-camera").is_displayed():
            fail("the camera view stays after Stop camera")
        errors = [e for e in console_errors(driver) if "favicon" not in e]
        if errors:
            fail(f"console errors: {errors}")

    # ---- The blank video: tracked, no hand, nothing plays ----
    with studio_browser(extra_flags=camera_flags(blank_video)) as driver:
        driver.get(url)
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
        wait_for(lambda: playing(driver) == ["", 0], what="nothing playing before the blank video")
        by_testid(driver, "camera-toggle").click()
        mark("blank")
        wait_for(lambda: (js(driver, "window.handsCamera.last?.stats?.tracked") or 0) >= 30, what="30 blank frames tracked")
        stats = js(driver, "window.handsCamera.last.stats")
        if stats["hands"] != 0 or js(driver, "window.handsCamera.last.hands.length") != 0:
            fail(f"a hand found in a blank video: {stats}")
        if js(driver, "window.hands.hud.hands.length") != 0 or playing(driver) != ["", 0]:
            fail(f"something plays with a blank video: {playing(driver)}")
        if "No hand" not in by_testid(driver, "camera-status").text:
            fail(f"the camera status reads {by_testid(driver, 'camera-status').text!r} with no hand in view")
        mark("blank-end")
        print(f"camera: blank video: {stats['tracked']} frames tracked, no hand, nothing plays", flush=True)
        by_testid(driver, "camera-toggle").click()

    # ---- A denied permission ----
    with studio_browser(extra_flags=["--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={blank_video}"]) as driver:
        driver.get(url)
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
        origin = js(driver, "location.origin")
        driver.execute_cdp_cmd("Browser.setPermission", {"origin": origin, "permission": {"name": "camera"}, "setting": "denied"})
        by_testid(driver, "camera-toggle").click()
        wait_for(lambda: "permission was denied" in by_testid(driver, "camera-status").text, what="the denied-permission message")
        if not by_testid(driver, "hands-camera").is_displayed():
            fail("the denied-permission message is not shown")
        if by_testid(driver, "camera-toggle").get_attribute("aria-pressed") != "false":
            fail("the camera reports itself on after a denied permission")
finally:
    for name in os.listdir(work):
        os.remove(os.path.join(work, name))
    os.rmdir(work)
