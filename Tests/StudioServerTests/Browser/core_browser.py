"""Shared Chromium harness for the studio's browser tests (every core_*.py, hecate_*.py, hands_*.py uses it).

Debian's chromium and chromedriver, Selenium from PyPI, nothing downloaded (SE_OFFLINE=true), headless with
SwiftShader so that WebGL and audio work without a GPU. A script prints one line per problem and exits 1,
or exits 0; the Swift test (StudioBrowserTests) runs it through the peer gate.

    from core_browser import studio_browser, console_errors, wait_for, fail
    with studio_browser() as driver:
        driver.get(url)
        ...

Time in a test is the page's own where it matters: the page's schedulers take a clock (js/clock.js), and a script
gives them FAKE_CLOCK's FakeClock, moves it by hand and checks what they scheduled, in that time. A wait on Chromium
or the studio is a bound for an outcome (the page shows X), generous for a busy machine, never a figure.
"""
import contextlib
import os
import sys
import time

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

# Seconds an outcome may take on a busy 2-core machine (a rebuild of the package beside the suite): a bound after
# which the test fails, never a figure it measures.
GENEROUS = 60.0
# fake_clock.js's FakeClock, to put in front of a script that runs the page's schedulers on a clock it moves by hand.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_clock.js")) as _source:
    FAKE_CLOCK = _source.read()

CHROMEDRIVER = os.environ.get("PROSPERO_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("PROSPERO_CHROMIUM", "/usr/bin/chromium")
# --disable-gpu-compositing: the pages are composited in software, while WebGL (Immerse) still draws through
# SwiftShader. Composited through SwiftShader, any change on a page (a status line at 2 Hz) made the GPU process
# raster whole frames on both cores: Home alone kept it at 0.9–1.4 cores, 8 % with software compositing, and the
# studio's browser tests took a core from the JACK tests beside them.
FLAGS = [
    "--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
    "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-compositing", "--disable-dev-shm-usage",
    "--no-first-run", "--disable-extensions", "--disable-background-networking",
]


@contextlib.contextmanager
def studio_browser(width=1280, height=900, extra_flags=()):
    """`extra_flags`: more Chromium switches (a fake camera: --use-fake-device-for-media-stream …)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + list(extra_flags) + [f"--window-size={width},{height}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.set_page_load_timeout(GENEROUS)
        driver.set_script_timeout(GENEROUS)
        yield driver
    finally:
        driver.quit()


def console_errors(driver):
    """Console messages at SEVERE level (errors, uncaught exceptions, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def by_testid(driver, testid):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def wait_for(condition, timeout=GENEROUS, what="condition", describe=None):
    """Polls `condition()` until it is truthy; returns its value or fails after `timeout` seconds, a bound for an outcome
    on a busy machine, never a figure. `describe()`, when given, says in the failure what the page showed instead."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # the element is not there yet
            last = error
        time.sleep(0.05)
    shown = ""
    if describe:
        try:
            shown = f"; the page shows {describe()!r}"
        except Exception as error:
            shown = f"; the page could not be read: {error!r}"
    fail(f"timed out waiting for {what} (last: {last!r}{shown})")


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)
