"""Hecate's screen in headless Chromium: it loads with no console errors; the mapping guide opens on the
first run; every control has an aria-label and a data-testid; a chord-bar click changes the chord the
engine plays (the HUD's "sounding" readout comes from the engine's snapshots); face frames sent over OSC
(python-osc) move the meters, head angles and tone columns, and the face is lost when they stop; Immerse
renders with WebGL (SwiftShader) and with its 2D fallback. Screenshots: hecate.png, immerse.png.

Usage: hecate_screen.py URL OSC_PORT SCREENSHOT_DIR"""
import os
import sys
import threading
import time

from core_browser import GENEROUS, studio_browser, console_errors, by_testid, wait_for, fail
from pythonosc.osc_bundle_builder import OscBundleBuilder, IMMEDIATELY
from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.udp_client import SimpleUDPClient
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

url, osc_port, shots = sys.argv[1], int(sys.argv[2]), sys.argv[3]
client = SimpleUDPClient("127.0.0.1", osc_port)


def message(address, *args):
    m = OscMessageBuilder(address=address)
    for a in args:
        m.add_arg(a)
    return m.build()


def send_face(jaw, brow, smile, yaw, pitch, roll):
    """One face in one bundle (the native scheme closes a frame at the bundle's end)."""
    b = OscBundleBuilder(IMMEDIATELY)
    b.add_content(message("/prospero/face/blend", "jawOpen", jaw, "browInnerUp", brow,
                          "mouthSmileLeft", smile, "mouthSmileRight", smile))
    b.add_content(message("/prospero/face/head", yaw, pitch, roll))
    client.send(b.build())


class FaceSender:
    """Sends one face 30 times a second until stopped (the lifecycle loses a face after 0.25 s of quiet)."""

    def __init__(self, **face):
        self.face = face
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            send_face(**self.face)
            time.sleep(1 / 30)

    def stop(self):
        self.running = False
        self.thread.join()


def canvas_light(driver):
    """Mean brightness (0…255) of the Immerse canvas, read through a 2D copy."""
    return driver.execute_script("""
        const c = document.querySelector('[data-testid="immerse-canvas"]');
        const copy = document.createElement('canvas');
        copy.width = 64; copy.height = 64;
        const g = copy.getContext('2d');
        g.drawImage(c, 0, 0, 64, 64);
        const d = g.getImageData(0, 0, 64, 64).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
        return sum / (d.length / 4);""")


def hud_value(driver, testid, attribute):
    return float(by_testid(driver, testid).get_attribute(attribute) or "nan")


with studio_browser() as driver:
    driver.get(url)
    # First run: the mapping guide, from the server's mapping set.
    wait_for(lambda: by_testid(driver, "mapping-guide").is_displayed(), what="the first-run mapping guide")
    wait_for(lambda: "5th" in by_testid(driver, "guide-voicing").text, what="the guide's voicing table")
    sculpting = by_testid(driver, "guide-sculpting").text
    if "filter cutoff" not in sculpting or "0–0.25 from centre" not in sculpting:
        fail(f"the guide's sculpting table reads {sculpting!r}")
    by_testid(driver, "guide-close").click()
    wait_for(lambda: not by_testid(driver, "mapping-guide").is_displayed(), what="the guide to close")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    wait_for(lambda: by_testid(driver, "chord-1").get_attribute("aria-pressed") == "true", what="the chord bar")

    # Every control has an aria-label and a data-testid.
    # Read in one script, so that a re-render can't make an element stale between two reads.
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('button, a, input, select')]"
        ".filter(c => !c.getAttribute('aria-label') || !c.getAttribute('data-testid'))"
        ".map(c => c.outerHTML.slice(0, 160));")
    if unlabelled:
        fail(f"controls without aria-label or data-testid: {unlabelled}")

    # No face yet: the waiting overlay. Meters collapsed behind METERS.
    if not by_testid(driver, "waiting-for-face").is_displayed():
        fail("no 'waiting for a face' overlay before any face")
    if by_testid(driver, "meters").is_displayed():
        fail("the meters are expanded before METERS is pressed")
    by_testid(driver, "meters-toggle").click()
    wait_for(lambda: by_testid(driver, "meters").is_displayed(), what="the meters to expand")
    if by_testid(driver, "meters-toggle").get_attribute("aria-expanded") != "true":
        fail("METERS does not report itself expanded")

    # A chord-bar click: the engine plays V (read back from its snapshot through the HUD frames).
    by_testid(driver, "chord-5").click()
    wait_for(lambda: by_testid(driver, "chord-5").get_attribute("aria-pressed") == "true", what="V pressed")
    wait_for(lambda: by_testid(driver, "engine-chord").get_attribute("data-chord") == "5", what="the engine to play V")

    # With neither the arpeggiator nor the tremolo (the defaults), the beat indicator flashes the tempo:
    # its pulse brightens on each quarter-note beat and fades over it.
    wait_for(lambda: by_testid(driver, "beat-indicator").get_attribute("data-shows") == "tempo", what="the beat indicator on the tempo")
    seen = set()
    deadline = time.monotonic() + GENEROUS  # a bound: a busy machine reads the opacity only a few times a second
    while time.monotonic() < deadline and (len(seen) < 4 or max(seen) < 0.7 or min(seen) > 0.4):
        seen.add(float(driver.execute_script("return getComputedStyle(document.querySelector('#beat .pulse')).opacity")))
        time.sleep(0.05)
    if len(seen) < 4 or max(seen) < 0.7 or min(seen) > 0.4:
        fail(f"the tempo pulse does not beat: opacities {sorted(seen)}")

    # The key changes the chord bar's names.
    Select(by_testid(driver, "key")).select_by_value("D")
    wait_for(lambda: by_testid(driver, "key-indicator").text == "D", what="the key D")
    wait_for(lambda: "Em" in by_testid(driver, "chord-2").text, what="ii = Em in D")
    wait_for(lambda: by_testid(driver, "engine-chord").get_attribute("data-key") == "D", what="the engine in D")

    # Face frames over OSC move the HUD.
    sender = FaceSender(jaw=0.8, brow=0.6, smile=0.7, yaw=18.0, pitch=-6.0, roll=9.0)
    try:
        wait_for(lambda: by_testid(driver, "face-status").get_attribute("data-face") == "found", what="face found")
        wait_for(lambda: not by_testid(driver, "waiting-for-face").is_displayed(), what="the waiting overlay to go")
        wait_for(lambda: abs(hud_value(driver, "meter-jaw", "data-value") - 0.8) < 0.01, what="the jaw meter at 0.8")
        wait_for(lambda: abs(hud_value(driver, "meter-brow", "data-value") - 0.6) < 0.01, what="the brow meter at 0.6")
        # Yaw 18° → 0.7 on the ±45° scale, 0.2 from centre of the 0–0.25 window → 0.8.
        wait_for(lambda: abs(hud_value(driver, "meter-turn", "data-amount") - 0.8) < 0.01, what="the turn meter's amount 0.8")
        wait_for(lambda: by_testid(driver, "head-yaw").text == "+18.0°", what="the head yaw")
        wait_for(lambda: hud_value(driver, "tone-fifth", "data-level") > 0.9, what="the 5th sounding")
        wait_for(lambda: hud_value(driver, "tone-third", "data-level") > 0.5, what="the 3rd sounding")
        # The whole screen, from the top, for the README.
        driver.set_window_size(1280, 1400)
        driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        time.sleep(0.8)
        driver.save_screenshot(os.path.join(shots, "hecate.png"))
        driver.set_window_size(1280, 900)

        # Immerse in WebGL (SwiftShader), lit by the sound.
        by_testid(driver, "mode-immerse").click()
        canvas = lambda: by_testid(driver, "immerse-canvas")
        wait_for(lambda: canvas().get_attribute("data-renderer") == "webgl", what="WebGL")
        wait_for(lambda: "moss-grid" in (canvas().get_attribute("data-compiled") or ""), what="the moss grid shader")
        first = int(canvas().get_attribute("data-frames"))
        # (Headless Chromium on a loaded machine may paint only a few frames a second: ask for motion, not a rate.)
        wait_for(lambda: int(canvas().get_attribute("data-frames")) > first + 3, what="Immerse to animate")
        wait_for(lambda: canvas().get_attribute("data-rate") == "display", what="display rate while it sounds")
        wait_for(lambda: canvas_light(driver) > 8, what="a lit picture")
        time.sleep(1.0)
        driver.save_screenshot(os.path.join(shots, "immerse.png"))
        # The Coven pack swaps in its spiral plasma.
        driver.execute_script("window.studio.set('hecate.pack', 'coven')")
        wait_for(lambda: "spiral-plasma" in (canvas().get_attribute("data-compiled") or ""), what="the spiral plasma shader")
        wait_for(lambda: canvas().get_attribute("data-shader") == "spiral-plasma", what="Immerse on the plasma")
        # A lost WebGL context (a busy machine's GPU process) leaves the picture drawing on in 2D, the page connected.
        driver.execute_script("document.querySelector('[data-testid=immerse-canvas]').getContext('webgl')"
                              ".getExtension('WEBGL_lose_context').loseContext()")
        wait_for(lambda: canvas().get_attribute("data-renderer") == "2d", what="the 2D picture after a lost context")
        first = int(canvas().get_attribute("data-frames"))
        wait_for(lambda: int(canvas().get_attribute("data-frames")) > first + 3, what="Immerse to draw on in 2D")
        if by_testid(driver, "connection-state").text != "connected":
            fail("the page lost its connection with the WebGL context")
        by_testid(driver, "immerse-exit").click()
        driver.execute_script("window.studio.set('hecate.pack', 'cathedral')")
    finally:
        sender.stop()

    # The face leaves: lost, the overlay back.
    wait_for(lambda: by_testid(driver, "face-status").get_attribute("data-face") == "lost", what="face lost")
    wait_for(lambda: by_testid(driver, "waiting-for-face").is_displayed(), what="the waiting overlay back")

    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")

    # The 2D fallback (as where WebGL is unavailable), idle at 10 fps in silence.
    driver.get(url + ("&" if "?" in url else "?") + "renderer=2d")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection (2D)")
    by_testid(driver, "mode-immerse").click()
    canvas = lambda: by_testid(driver, "immerse-canvas")
    wait_for(lambda: canvas().get_attribute("data-renderer") == "2d", what="the 2D renderer")
    sender = FaceSender(jaw=0.9, brow=0.8, smile=1.0, yaw=0.0, pitch=0.0, roll=0.0)
    try:
        first = int(canvas().get_attribute("data-frames"))
        wait_for(lambda: int(canvas().get_attribute("data-frames")) > first + 3, what="the 2D picture to animate")
        wait_for(lambda: canvas_light(driver) > 4, what="a lit 2D picture")
    finally:
        sender.stop()
    # Silence (the face gone, faded out): the picture idles, and draws on.
    wait_for(lambda: canvas().get_attribute("data-rate") == "idle", what="Immerse idle in silence")
    before = int(canvas().get_attribute("data-frames"))
    wait_for(lambda: int(canvas().get_attribute("data-frames")) > before, what="Immerse to draw on while idle")
    # Its pacing in the display's own time: a 2D Immerse of its own, given 2 s of display frames 10 ms apart (the
    # times requestAnimationFrame passes it), draws every one while it sounds and one each 100 ms (10 fps) in silence.
    paced = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      import("/hecate/immerse.js").then(({ Immerse, IDLE_RMS }) => {
        const canvas = document.createElement("canvas");
        canvas.width = 64; canvas.height = 64;
        const immerse = new Immerse(canvas, { renderer: "2d" });
        immerse.setVisible(true);
        const drawn = (rms, from) => {
          immerse.update({ rms });
          const times = [];
          for (let t = from; t < from + 2000; t += 10) { const n = immerse.frames; immerse.tick(t); if (immerse.frames > n) times.push(t - from); }
          return times;
        };
        const sounding = drawn(IDLE_RMS * 4, 100000), idle = drawn(0, 200000);
        immerse.setVisible(false);
        done({ sounding, idle });
      });""")
    if paced["sounding"] != list(range(0, 2000, 10)):
        fail(f"Immerse while it sounds drew at {paced['sounding']} ms, every 10 ms display frame expected")
    if paced["idle"] != list(range(0, 2000, 100)):
        fail(f"Immerse in silence drew at {paced['idle']} ms, one each 100 ms expected")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors (2D): {errors}")
print("ok")
