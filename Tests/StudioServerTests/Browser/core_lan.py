"""The studio from another machine over plain HTTP (run inside the test's network namespace, which reaches the
studio only through a veth pair): the page loads and connects as a controller, but it is no secure context, so it
cannot play sound (or open a camera); the audio indicator says why and how to start HTTPS, and Listen is disabled.

    ip netns exec NS python3 core_lan.py http://10.x.y.1:PORT/?token=T
"""
import sys
import urllib.parse

from core_browser import by_testid, console_errors, fail, studio_browser, wait_for

url = sys.argv[1]


def shown(driver):
    """What a page that did not connect showed: its connection state, address, title and console messages."""
    log = [entry["message"] for entry in driver.get_log("browser")]
    return (by_testid(driver, "connection-state").text, driver.current_url, driver.title, log)


with studio_browser() as driver:
    driver.get(url)
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection from the other machine",
             describe=lambda: shown(driver))
    facts = driver.execute_script("""return {
        protocol: location.protocol, secure: window.isSecureContext, camera: !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)}""")
    if facts != {"protocol": "http:", "secure": False, "camera": False}:
        fail(f"expected an insecure page without the camera API: {facts}")
    text = wait_for(lambda: by_testid(driver, "audio-indicator-text"), what="the audio indicator")
    if text.get_attribute("data-insecure") != "true":
        fail(f"the indicator does not know the page is insecure: {text.text!r}")
    said = text.text
    for words in ["secure page", "--tls", "https"]:
        if words not in said:
            fail(f"the indicator does not say {words!r}: {said!r}")
    if not by_testid(driver, "audio-listen").get_attribute("disabled"):
        fail("Listen is enabled on an insecure page")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")
    print(f"plain HTTP from another machine: {said!r}", flush=True)

    # Hecate's Use camera says why the camera cannot open here and how to start HTTPS (the cookie from the first
    # visit carries the token).
    driver.get(urllib.parse.urlsplit(url)._replace(path="/hecate/", query="guide=0").geturl())
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="Hecate's page from the other machine",
             describe=lambda: shown(driver))
    by_testid(driver, "camera-toggle").click()
    status = by_testid(driver, "camera-status")
    camera_said = status.text
    if status.get_attribute("data-state") != "blocked" or not all(w in camera_said for w in ["secure page", "--tls", "https://", "localhost"]):
        fail(f"Use camera on plain HTTP from another machine says {camera_said!r} ({status.get_attribute('data-state')})")
    if by_testid(driver, "camera-toggle").get_attribute("aria-pressed") != "false":
        fail("the camera reports itself on in an insecure page")
    print(f"plain HTTP from another machine, Use camera: {camera_said!r}", flush=True)
