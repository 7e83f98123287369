"""The studio's own camera (`prospero studio --camera`) reaching a page in headless Chromium: the test runs the studio
with a video of a drawn hand as its camera and Hands active; the Hands page, whose own camera stays off, shows the
studio's camera in its view: the preview frames arrive (binary kind 0x22) and are drawn, the bridge's hands come with
`"source":"studio"` and are drawn over them, the router plays them. Screenshot: studio-camera.png.

Usage: studio_camera.py URL DEVICE_NAME SCREENSHOT_DIR"""
import os
import sys
import time

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail

url, device, shots = sys.argv[1:4]


def js(driver, expression):
    return driver.execute_script(f"return {expression};")


started = time.monotonic()
# Every wait here is a guard, not a figure: it counts the time the machine gave (MachineDeadline), since the camera
# bridge's start (MediaPipe's import and model) and Chromium drawing 30 previews a second share two cores with the
# rest of the suite.


def at():
    return f"{time.monotonic() - started:.1f} s"


with studio_browser() as driver:
    driver.get(url)
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection", machine_time=True)
    wait_for(lambda: js(driver, "window.handsCamera.studioName") == device, what="the studio's camera named in the welcome", machine_time=True)
    if "camera" not in js(driver, "window.studio.subscribe"):
        fail("the page does not subscribe to the studio's camera")
    wait_for(lambda: by_testid(driver, "hands-camera").is_displayed(), what="the camera view showing the studio's camera", machine_time=True)
    wait_for(lambda: js(driver, "window.handsCamera.previews") >= 10, timeout=30, what="10 preview frames drawn", machine_time=True)
    print(f"camera: 10 previews drawn at {at()}", flush=True)
    wait_for(lambda: js(driver, "window.handsCamera.last?.source === 'studio' && window.handsCamera.last.hands.length > 0"),
             timeout=30, what="the studio camera's hand", machine_time=True)
    print(f"camera: the studio camera's hand at {at()}", flush=True)
    if js(driver, "window.handsCamera.on"):
        fail("the page's own camera turned on")
    wait_for(lambda: (js(driver, "document.body.dataset.sounding") or "") != "", timeout=10, what="the studio camera's hand playing the router", machine_time=True)
    print(f"camera: the router sounding at {at()}", flush=True)
    canvas = js(driver, "[document.querySelector('[data-testid=hands-camera-canvas]').width, document.querySelector('[data-testid=hands-camera-canvas]').height]")
    status = by_testid(driver, "camera-status").text
    if canvas != [320, 240] or not status.startswith("Studio camera"):
        fail(f"the view is {canvas} and reads {status!r}")
    print(f"camera: at {at()} the page drew {js(driver, 'window.handsCamera.previews')} preview frames of the studio's camera; "
          f"status {status!r}; the router plays {js(driver, 'document.body.dataset.sounding')}", flush=True)
    driver.save_screenshot(os.path.join(shots, "studio-camera.png"))
    errors = [e for e in console_errors(driver) if "favicon" not in e]
    if errors:
        fail(f"console errors: {errors}")
