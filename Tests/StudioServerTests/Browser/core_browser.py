"""Shared Chromium harness for the studio's browser tests (every core_*.py, hecate_*.py, hands_*.py uses it).

Debian's chromium and chromedriver, Selenium from PyPI, nothing downloaded (SE_OFFLINE=true), headless with
SwiftShader so that WebGL and audio work without a GPU. A script prints one line per problem and exits 1,
or exits 0; the Swift test (StudioBrowserTests) runs it through the peer gate.

    from core_browser import studio_browser, console_errors, wait_for, fail
    with studio_browser() as driver:
        driver.get(url)
        ...
"""
import contextlib
import os
import sys
import time

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

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
        driver.set_page_load_timeout(20)
        yield driver
    finally:
        driver.quit()


def console_errors(driver):
    """Console messages at SEVERE level (errors, uncaught exceptions, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def by_testid(driver, testid):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def cpu_stall_seconds():
    """Seconds so far in which some task waited for a CPU (Linux pressure stall information, /proc/pressure/cpu
    "some"); None where the kernel has none."""
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
        return int(some[4].split("=")[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return None


class MachineDeadline:
    """`seconds` of the time the machine gave: the deadline moves on by every second in which some task waited for a
    CPU (pressure stall information), up to twelve times `seconds`. On a quiet machine it is the plain deadline; on a
    busy one a figure such as "the face within 5 s" is judged on the time the work had, not on the time a build beside
    it took."""

    def __init__(self, seconds):
        self.start, self.seconds, self.stalled = time.monotonic(), seconds, cpu_stall_seconds()

    def expired(self):
        now = time.monotonic()
        if now < self.start + self.seconds:
            return False
        if self.stalled is None:
            return True
        return now >= min(self.start + 12 * self.seconds, self.start + self.seconds + cpu_stall_seconds() - self.stalled)


def wait_for(condition, timeout=10.0, what="condition", machine_time=False, describe=None):
    """Polls `condition()` until it is truthy; returns its value or fails. With `machine_time`, `timeout` is a
    ``MachineDeadline``. `describe()`, when given, says in the failure what the page showed instead."""
    deadline = MachineDeadline(timeout) if machine_time else None
    end = time.monotonic() + timeout
    last = None
    while (not deadline.expired()) if deadline else (time.monotonic() < end):
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
