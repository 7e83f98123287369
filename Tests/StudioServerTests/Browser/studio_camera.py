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
# Every wait here is a bound for an outcome, not a figure (the times printed are for the log): the camera bridge's
# start (MediaPipe's import and model) and Chromium drawing the previews share two cores with the rest of the suite.


def at():
    return f"{time.monotonic() - started:.1f} s"


with studio_browser() as driver:
    driver.get(url)
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    wait_for(lambda: js(driver, "window.handsCamera.studioName") == device, what="the studio's camera named in the welcome")
    if "camera" not in js(driver, "window.studio.subscribe"):
        fail("the page does not subscribe to the studio's camera")
    wait_for(lambda: by_testid(driver, "hands-camera").is_displayed(), what="the camera view showing the studio's camera")
    wait_for(lambda: js(driver, "window.handsCamera.previews") >= 10, what="10 preview frames drawn")
    print(f"camera: 10 previews drawn at {at()}", flush=True)
    wait_for(lambda: js(driver, "window.handsCamera.last?.source === 'studio' && window.handsCamera.last.hands.length > 0"), what="the studio camera's hand")
    print(f"camera: the studio camera's hand at {at()}", flush=True)
    if js(driver, "window.handsCamera.on"):
        fail("the page's own camera turned on")
    wait_for(lambda: (js(driver, "document.body.dataset.sounding") or "") != "", what="the studio camera's hand playing the router")
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
