"""The studio over HTTPS as a phone uses it: Chromium trusts the test's own certificate authority (an NSS database
made with certutil in a private HOME, as a user would import a CA), the page loads over https:// with no
certificate error and no console error, it is a secure context (browser audio and the camera API are there), its
WebSocket is wss://, the token cookie is Secure and HttpOnly, and "Tap to listen" plays the studio's sound.

    python3 core_https.py https://127.0.0.1:PORT/?token=T CA.pem WORK_DIR
"""
import contextlib
import json
import os
import subprocess
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from core_browser import CHROMEDRIVER, CHROMIUM, FLAGS, by_testid, console_errors, fail, wait_for

url, ca, work = sys.argv[1], sys.argv[2], sys.argv[3]

# Chromium on Linux trusts the authorities of the NSS database in $HOME/.pki/nssdb.
home = os.path.join(work, "home")
nssdb = os.path.join(home, ".pki", "nssdb")
os.makedirs(nssdb, exist_ok=True)
subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True)
subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", "Prospero test CA", "-t", "C,,", "-i", ca], check=True)


@contextlib.contextmanager
def trusting_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + ["--window-size=1280,900", f"--user-data-dir={os.path.join(work, 'profile')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    env = dict(os.environ, HOME=home)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER, env=env), options=options)
    try:
        driver.set_page_load_timeout(20)
        yield driver
    finally:
        driver.quit()


with trusting_browser() as driver:
    driver.get(url)
    if not driver.current_url.startswith("https://"):
        fail(f"not on https: {driver.current_url}")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection over wss")
    facts = driver.execute_script("""return {
        protocol: location.protocol, secure: window.isSecureContext,
        worklet: typeof AudioWorkletNode === "function", camera: !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia)}""")
    if facts != {"protocol": "https:", "secure": True, "worklet": True, "camera": True}:
        fail(f"not a secure context with audio and camera: {facts}")

    sockets = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.webSocketCreated":
            sockets.append(message["params"]["url"])
    if not sockets or not all(s.startswith("wss://") for s in sockets):
        fail(f"the page's WebSockets are not wss://: {sockets}")

    cookies = [c for c in driver.get_cookies() if c["name"] == "prospero_studio"]
    if len(cookies) != 1 or not cookies[0].get("secure") or not cookies[0].get("httpOnly"):
        fail(f"the token cookie is not Secure and HttpOnly: {cookies}")

    # Browser audio: the indicator offers Listen (not the insecure-page notice) and the worklet plays.
    listen = wait_for(lambda: by_testid(driver, "audio-listen"), what="the Listen button")
    if listen.get_attribute("disabled") or by_testid(driver, "audio-indicator-text").get_attribute("data-insecure"):
        fail(f"browser audio refused: {by_testid(driver, 'audio-indicator-text').text}")
    listen.click()
    wait_for(lambda: driver.execute_script(
        "return window.prosperoAudio && window.prosperoAudio.context && window.prosperoAudio.context.state === 'running'"
        " && window.prosperoAudio.frames > 10"), what="the worklet to play the studio's frames")

    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")
    print(f"https page: secure context, sockets {sockets}, cookie {cookies[0]['name']} Secure HttpOnly, audio running", flush=True)
