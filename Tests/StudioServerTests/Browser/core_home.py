"""Home loads with no console errors, shows the registered instruments, the audio status, the connect
instructions and the Oberon panels; onboarding shows three pages on first run; a lost server shows the
banner. Usage: core_home.py URL SCREENSHOT.png"""
import sys

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail
from selenium.webdriver.common.by import By

url, screenshot = sys.argv[1], sys.argv[2]

with studio_browser(height=1000) as driver:
    driver.get(url)
    # First run: onboarding, three pages, a Tempest quote on the first.
    wait_for(lambda: by_testid(driver, "onboarding").is_displayed(), what="the onboarding overlay")
    quote = by_testid(driver, "tempest-quote").text
    if "Tempest" not in quote:
        fail(f"the splash quote is {quote!r}")
    pages = []
    for _ in range(3):
        pages.append(driver.find_element(By.ID, "onboarding-page").get_attribute("data-page"))
        by_testid(driver, "onboarding-next").click()
    if pages != ["1", "2", "3"] or by_testid(driver, "onboarding").is_displayed():
        fail(f"onboarding pages {pages}, still shown: {by_testid(driver, 'onboarding').is_displayed()}")

    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what="the connection")
    wait_for(lambda: by_testid(driver, "instrument-tone"), what="the test tone in the instrument list")
    backend = wait_for(lambda: by_testid(driver, "audio-backend").text, what="the audio backend")
    if backend not in ("jack", "none", "browser"):
        fail(f"audio backend shows {backend!r}")
    osc = by_testid(driver, "osc-address").text
    if not osc.startswith("udp 127.0.0.1:"):
        fail(f"the OSC address shows {osc!r}")
    # The panels draw: the meter canvas exists and the page reports a level (silence: 0).
    wait_for(lambda: by_testid(driver, "oberon-panels").get_attribute("data-peak") is not None, what="the panels")

    # Selecting the instrument marks it active.
    by_testid(driver, "select-tone").click()
    wait_for(lambda: by_testid(driver, "select-tone").get_attribute("aria-pressed") == "true", what="tone active")

    # Every control has an aria-label and a data-testid.
    # Read in one script: the page re-renders its lists as state arrives, which would make elements
    # fetched one by one stale.
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('button, a, input, select')]"
        ".filter(c => !c.getAttribute('aria-label') || !c.getAttribute('data-testid'))"
        ".map(c => c.outerHTML.slice(0, 120));")
    if unlabelled:
        fail(f"controls without aria-label or data-testid: {unlabelled}")

    driver.save_screenshot(screenshot)
    errors = console_errors(driver)
    if errors:
        fail(f"console errors: {errors}")
print("ok")
