"""MIDI learn in headless Chromium: every knob on Hecate's screen and every synth knob on the hands screen
has a learn button (aria-label, data-testid); clicking Hecate's tempo button arms it (the server says so),
the controller the test then moves (CC 20 on channel 1, sent by the Swift test into the session as JACK's
midi_in would) shows as bound, and moving it to the top sets the tempo to 300 BPM on the page; the clear
button forgets it. No console errors. Screenshot: hecate-learn.png.

Usage: settings_learn.py BASE_URL SCREENSHOT_DIR"""
import os
import sys

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail
from selenium.webdriver.common.by import By

base, shots = sys.argv[1].rstrip("/"), sys.argv[2]

with studio_browser() as driver:
    driver.get(f"{base}/hecate/?guide=0")
    for path in ["hecate.bpm", "hecate.tremoloDepth", "hecate.bassLevel", "hecate.droneLevel", "hecate.reverb"]:
        button = wait_for(lambda: by_testid(driver, f"learn-{path}"), what=f"the learn button of {path}")
        if not button.get_attribute("aria-label").startswith("MIDI learn: "):
            fail(f"learn button of {path} has no proper aria-label: {button.get_attribute('aria-label')!r}")
        if button.text != "MIDI":
            fail(f"{path} is bound before anything was learned: {button.text!r}")

    learn = by_testid(driver, "learn-hecate.bpm")
    learn.click()
    # The server arms it; the test's pump moves CC 20 twice; the page shows the binding.
    wait_for(lambda: by_testid(driver, "learn-hecate.bpm").get_attribute("data-binding") == "CC 20 ch 1", what="the tempo bound to CC 20 on channel 1")
    if not by_testid(driver, "learn-clear-hecate.bpm").is_displayed():
        fail("no clear button beside a bound control")
    # Then the controller at its top: 300 BPM on the page (the server moved the control as its slider does).
    wait_for(lambda: by_testid(driver, "bpm").get_attribute("value") == "300", what="CC 20 = 127 to set 300 BPM")
    os.makedirs(shots, exist_ok=True)
    driver.save_screenshot(os.path.join(shots, "hecate-learn.png"))

    by_testid(driver, "learn-clear-hecate.bpm").click()
    wait_for(lambda: by_testid(driver, "learn-hecate.bpm").get_attribute("data-binding") == "", what="the binding forgotten")
    wait_for(lambda: not by_testid(driver, "learn-clear-hecate.bpm").is_displayed(), what="the clear button hidden")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors on /hecate/: {errors}")

    # The hands screen: a learn button beside every synth knob.
    driver.get(f"{base}/hands/")
    # The notice (and its button) shows once the page has the studio's state: Hecate is the one playing.
    wait_for(lambda: (b := by_testid(driver, "hands-activate")).is_displayed() and b,
             what="the hands page's notice that another instrument plays").click()
    for name in ["attack", "release", "lfoRate", "toneCutoff", "delayMix", "reverbMix", "gain"]:
        button = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'[data-testid="learn-hands.synth.{name}"]'),
                          what=f"the learn button of hands.synth.{name}")[0]
        if not button.get_attribute("aria-label").startswith("MIDI learn: "):
            fail(f"learn button of hands.synth.{name} has no proper aria-label")
    if driver.find_elements(By.CSS_SELECTOR, '[data-testid="learn-hands.synth.waveform"]'):
        fail("a choice (the waveform) got a learn button")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors on /hands/: {errors}")
print("ok")
