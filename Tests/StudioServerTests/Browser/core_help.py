"""Every screen's help overlay (js/help.js): Home, Hecate, Hands and the test tone. On each page the "?"
button (aria-label, data-testid help-open) opens the overlay, which lists the screen's controls (each one
the page has is named, with what it does); Escape closes it; the "?" key opens it again and Escape closes
it again; Hecate's includes the mapping guide table with the server's rows. No console errors.
Usage: core_help.py BASE_URL"""
import sys

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

base = sys.argv[1].rstrip("/")

# Per page: the controls its help must name (the texts of its <dt> entries), written from the pages' own
# controls, so a control that is added without help, or help that names a control that is gone, shows.
PAGES = {
    "/?noonboarding": ["Play / Active", "Open", "Help", "Connection", "Audio", "Input sources", "Connect", "Output"],
    "/hecate/?guide=0": ["METERS", "HUD / Immerse", "Guide", "Chord bar", "Beat", "− BPM +", "ARP", "Mute", "Key",
                         "Sound pack", "Arpeggiator step", "Tremolo, period, depth", "Bass, Drone level", "Reverb",
                         "Output route", "Play along"],
    "/hands/": ["Pad", "Velocity dial", "Mod dial", "Oscilloscope", "Keyboard strip", "All notes off", "Settings",
                "Key, Scale", "Lowest, Highest note", "MIDI channel", "Bend inside a zone", "Bend range", "Output",
                "One channel", "One per hand", "MPE"],
    "/tone/": ["Tone on / off", "1 kHz at −18 dBFS", "Frequency", "Level (dBFS)", "Pad"],
}


def overlay_shown(driver):
    return by_testid(driver, "help-overlay").is_displayed()


with studio_browser() as driver:
    for path, names in PAGES.items():
        driver.get(base + path)
        wait_for(lambda: by_testid(driver, "connection-state").text == "connected", what=f"{path}: the connection")
        if "/hecate/" in path:
            # The guide's rows come from the server's mapping set: Hecate must be active for its state.
            if by_testid(driver, "not-active").is_displayed():
                by_testid(driver, "hecate-activate").click()
            wait_for(lambda: "5th" in driver.execute_script("return document.querySelector('#guide-voicing').textContent"),
                     what="Hecate's mapping rows")
        button = wait_for(lambda: by_testid(driver, "help-open"), what=f"{path}: the help button")
        if not (button.get_attribute("aria-label") or "").startswith("Help"):
            fail(f"{path}: the help button's aria-label is {button.get_attribute('aria-label')!r}")
        if overlay_shown(driver):
            fail(f"{path}: the help is open before it was asked for")

        button.click()
        wait_for(lambda: overlay_shown(driver), what=f"{path}: the help to open from its button")
        listed = driver.execute_script(
            "return [...document.querySelectorAll('[data-testid=help-overlay] dl.help-controls dt')].map(d => d.textContent)")
        missing = [n for n in names if n not in listed]
        if missing:
            fail(f"{path}: the help does not explain {missing} (it lists {listed})")
        empty = driver.execute_script(
            "return [...document.querySelectorAll('[data-testid=help-overlay] dl.help-controls dd')].filter(d => d.textContent.trim().length < 8).length")
        if empty:
            fail(f"{path}: {empty} controls have no explanation")
        if not driver.execute_script("return document.querySelectorAll('[data-testid=help-overlay] .help-how li').length"):
            fail(f"{path}: the help does not say how to play")
        if "/hecate/" in path:
            rows = driver.execute_script(
                "return [...document.querySelectorAll('[data-testid=help-guide-voicing] tr, [data-testid=help-guide-sculpting] tr')]"
                ".map(r => r.textContent)")
            if len(rows) < 5 or not any("5th" in r for r in rows) or not any("Turn head" in r for r in rows):
                fail(f"{path}: the help's mapping guide reads {rows}")
        if driver.switch_to.active_element.get_attribute("data-testid") != "help-close":
            fail(f"{path}: focus is not on the help's close button")

        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait_for(lambda: not overlay_shown(driver), what=f"{path}: Escape to close the help")
        if "/hecate/" in path and by_testid(driver, "immerse").is_displayed():
            fail(f"{path}: Escape reached the page under the help")

        # The "?" key opens it; Escape closes it again.
        ActionChains(driver).send_keys("?").perform()
        wait_for(lambda: overlay_shown(driver), what=f"{path}: the ? key to open the help")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait_for(lambda: not overlay_shown(driver), what=f"{path}: Escape to close the help again")

        unlabelled = driver.execute_script(
            "return [...document.querySelectorAll('[data-testid=help-overlay] button, [data-testid=help-open]')]"
            ".filter(c => !c.getAttribute('aria-label') || !c.getAttribute('data-testid')).map(c => c.outerHTML.slice(0, 120));")
        if unlabelled:
            fail(f"{path}: help controls without aria-label or data-testid: {unlabelled}")
        errors = console_errors(driver)
        if errors:
            fail(f"{path}: console errors: {errors}")
print("ok")
