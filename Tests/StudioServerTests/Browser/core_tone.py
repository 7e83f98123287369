"""The test tone page: no console errors; the reference button turns the tone on at 1 kHz −18 dBFS (the
page shows what the server sent back); a pointer drag on the pad plays and releasing ends it.
Usage: core_tone.py URL"""
import sys

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail
from selenium.webdriver.common.action_chains import ActionChains

url = sys.argv[1]

with studio_browser() as driver:
    driver.get(url)
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    by_testid(driver, "tone-reference").click()
    wait_for(lambda: by_testid(driver, "tone-on").get_attribute("aria-pressed") == "true", what="the tone on")
    readout = wait_for(lambda: by_testid(driver, "tone-readout").text == "1000 Hz, -18 dBFS" and by_testid(driver, "tone-readout").text,
                       what="the readout")
    touches = []
    driver.execute_script("""
        window.__touching = [];
        window.studio.on('changed', (m) => { if ('touching' in m.changes) window.__touching.push(m.changes.touching); });""")
    pad = by_testid(driver, "tone-pad")
    ActionChains(driver).move_to_element(pad).click_and_hold().move_by_offset(40, 10).release().perform()
    touches = wait_for(lambda: driver.execute_script("return window.__touching.length >= 2 && window.__touching"), what="touch on and off")
    if touches[:2] != [True, False]:
        fail(f"touching went {touches}")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")
print("ok")
