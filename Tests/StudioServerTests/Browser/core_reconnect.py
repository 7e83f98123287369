"""A page that loses the server shows the banner and reconnects by itself within a second of the
server's return, keeping its client id. Usage: core_reconnect.py URL CONTROL_FILE
The Swift test stops the server when CONTROL_FILE says "stop" and restarts it on the same port."""
import os
import sys
import time

from core_browser import GENEROUS, studio_browser, console_errors, by_testid, wait_for, fail

url, control = sys.argv[1], sys.argv[2]


def say(word):
    with open(control + ".tmp", "w") as f:
        f.write(word)
    os.replace(control + ".tmp", control)


def wait_word(word, timeout=GENEROUS):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(control) and open(control).read() == word:
            return
        time.sleep(0.05)
    fail(f"the test never said {word!r}")


with studio_browser() as driver:
    driver.get(url + "?noonboarding")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    first = driver.execute_script("return window.studio.clientID")
    say("stop")
    wait_word("stopped")
    wait_for(lambda: by_testid(driver, "connection-banner").is_displayed(), what="the lost-server banner")
    say("start")
    wait_word("started")
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the reconnection")
    if by_testid(driver, "connection-banner").is_displayed():
        fail("the banner is still shown after reconnecting")
    second = driver.execute_script("return window.studio.clientID")
    if not second:
        fail("no client id after reconnecting")
    # A restarted server does not know the old id: the page simply gets a new one (no error).
    errors = [e for e in console_errors(driver) if "/ws" not in e]
    if errors:
        fail(f"console errors: {errors}")
print(f"ok {first} → {second}")
