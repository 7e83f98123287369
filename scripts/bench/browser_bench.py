#!/usr/bin/env python3
"""The browser and camera half of the live bench (scripts/bench/browser runs it; scripts/bench/live is the JACK half):
a real `prospero studio --audio browser` and real headless Chromium (Selenium and chromedriver, with the browser tests'
flags from Tests/StudioServerTests/Browser/core_browser.py), measured on the wall clock. These are the figures the test
suite no longer asserts (tests judge timing on a fake clock; the machine's speed is the bench's):

- audio: the tone page listening (the AudioWorklet player, js/browser-audio.js's stats()), steady playback for SECONDS
  after 1 s of settling: dropouts, frames played and lost, the longest wait between frames, the buffer fill, the
  indicator's latency;
- haptics: Feel Your Vibe played by touch; each burst the page played whole, its navigator.vibrate call against its due
  time (the session time mapped with this script's own clock sync over a second socket); then bursts due 300 ms ahead
  given to a HapticPlayer of the page's code on the page's real clock (the removed scheduler check);
- camera: Hecate's and the Hands page's cameras with Chromium's fake camera reading a y4m video (the camera tests'
  photograph, scikit-image's astronaut, and scripts/camera/drawn_hand.py's hand): the face and the hand found after
  the click, frames sent a second, the latency readout (sent → applied, median and p95), and Hecate's Immerse in
  silence after the face has gone (its idle frame rate).

    browser_bench.py --bin DIR [--check] [--seconds N] [audio|haptics|camera|all]

Progress on standard error, the table on standard output (each row as soon as it is measured). Every process it starts
(the studio, chromedriver, Chromium, the camera bridge the studio starts, the video makers) is stopped by pid when it
ends, on Ctrl-C and on SIGTERM; it is the subreaper of its descendants, so that nothing a killed parent left is missed.
Exit 0, or with --check 1 when a target is missed (each named on standard error); 2 for a setup or usage error.
"""
import argparse
import contextlib
import ctypes
import datetime
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BROWSER_TESTS = os.path.join(ROOT, "Tests", "StudioServerTests", "Browser")

# ---- Targets: every one in this table, each with where it comes from (the wall-clock checks the browser
# tests in Tests/StudioServerTests made before they moved to a fake clock). A row whose target is None is reported, not judged.
TARGETS = {
    # core_audio_stream.py: "only N frames in 20 s (expected ~3750)" failed under 3400 in 20 s (170 a second).
    "audio.frames_per_second": 170,
    # core_audio_stream.py: "On an idle machine: no dropouts at all" (the test let a busy machine's delivery stall
    # through: dropouts only failed when frames never came more than 30 ms apart).
    "audio.dropouts": 0,
    # core_audio_stream.py: frames lost only when the page went 341 ms (the server's 64 blocks) without reading; the
    # bench wants none.
    "audio.lost": 0,
    # core_audio_stream.py: the fill near the 40 ms target, 20 … 70 ms; up to 80 ms (where the page trims a burst)
    # after a delivery stall (frames 60 ms or more apart, where a group comes every 32 ms).
    "audio.fill_ms": (20, 70),
    "audio.fill_ms_after_stall": (20, 80),
    "audio.stall_gap_ms": 60,
    # core_audio_stream.py and StudioBrowserAudioBrowserTests: the indicator's latency 20 … 150 ms (the README's figure:
    # 40 ms of buffer plus the browser's output latency under 150 ms).
    "audio.latency_ms": (20, 150),
    # GamesBrowserTests: each burst played whole "within 50 ms of its session-clock time" (abs(call − due) ≤ 50); the
    # bench judges the 95th percentile of the lateness.
    "haptics.p95_ms": 50,
    # GamesBrowserTests checkScheduler: the burst due 300 ms ahead vibrated "never early" (late ≥ −2 ms) and within
    # 50 ms of its time.
    "haptics.ahead_p95_ms": 50,
    "haptics.ahead_earliest_ms": -2,
    # hecate_camera.py: "at most 30 frames a second" (failed above 31 over 2 s).
    "camera.fps": 31,
    # hecate_camera.py and hands_camera.py: "finds the face / the hand within 5 s of the click" (the bridge cold: the
    # first frame starts it).
    "camera.found_s": 5.0,
    # hecate_camera.py and hands_camera.py: the server's share (received → applied, median) at most the whole latency
    # (sent → applied, median) × 1.1 + 2 ms (medians of two sets of frames). The latency itself had no target.
    "camera.server_share": (1.1, 2.0),
    # hecate_screen.py: in silence Immerse idles at 10 fps (IDLE_FPS); the test wanted 1 … 30 frames in 2 s.
    "camera.idle_fps": (0.5, 15.0),
}
IDLE_FPS_EXPECTED = 10

FACE_LATENCY_COUNT = 60   # hecate_camera.py read the readout over 60 faces applied
HANDS_LATENCY_COUNT = 30  # hands_camera.py over 30 hands
RATE_SECONDS = 5.0        # frames a second (sent) and Immerse's idle rate are counted over this long
BOUND = 90.0              # seconds an outcome may take before the row is "not measured" (a bound, not a figure)


def progress(text):
    print(f"browser bench: {text}", file=sys.stderr, flush=True)


class Stop(BaseException):
    """SIGINT or SIGTERM: unwinds through every `finally`, which stops what was started."""


STOPPING = []  # the signal that asked to stop, once one has


def on_signal(signum, _frame):
    """The first SIGINT or SIGTERM raises Stop; later ones are blocked (not ignored: setting a handler while a signal is
    pending raises in the handler), so that the cleanup runs to its end."""
    if STOPPING:
        return
    STOPPING.append(signum)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    raise Stop(signum)


def stop_requested():
    """Re-raises Stop where a broad `except` caught something while a signal was unwinding."""
    if STOPPING:
        raise Stop(STOPPING[0])


class SetupError(Exception):
    pass


# ---- Processes: everything started is stopped by pid.

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def descendants(root):
    """Pids below `root` now (from /proc's parent links)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stop_pids(pids, grace=5.0):
    """SIGTERM to each pid, SIGKILL to any still there after `grace` s."""
    pids = [p for p in pids if alive(p)]
    for p in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGTERM)
    end = time.monotonic() + grace
    while time.monotonic() < end and any(alive(p) for p in pids):
        reap()
        time.sleep(0.1)
    for p in pids:
        if alive(p):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGKILL)
    reap()


def stop_everything():
    """The last sweep: whatever is still below this process (a Chromium whose chromedriver died first, the bridge of a
    killed studio), by pid."""
    left = descendants(os.getpid())
    if left:
        progress(f"stopping what is left: pids {left}")
        stop_pids(left, grace=3.0)


# ---- The studio.

def start_studio(prospero, work, name, extra_env=None):
    """`prospero studio --audio browser` as a user runs it (loopback, free ports, no settings file); returns the
    process and its base URL (http://127.0.0.1:PORT/)."""
    log_path = os.path.join(work, f"studio-{name}.log")
    env = dict(os.environ)
    env.pop("PROSPERO_STUDIO_TOKEN", None)
    env["XDG_CONFIG_HOME"] = os.path.join(work, "config")
    env.update(extra_env or {})
    log = open(log_path, "w")
    process = subprocess.Popen([prospero, "studio", "--port", "0", "--osc-port", "0", "--audio", "browser", "--no-qr", "--no-settings"],
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    log.close()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        text = open(log_path).read()
        url = next((l[len("studio: "):].strip() for l in text.splitlines() if l.startswith("studio: http")), None)
        if url:
            progress(f"studio (pid {process.pid}) at {url}")
            return process, url.split("?")[0], log_path
        if process.poll() is not None:
            break
        time.sleep(0.05)
    text = open(log_path).read()
    stop_studio(process)
    raise SetupError(f"prospero studio printed no URL: {text[-2000:]}")


def stop_studio(process):
    """SIGINT (the studio stops its bridge and sockets), SIGKILL after 15 s, then whatever it left."""
    if process.poll() is None:
        below = descendants(process.pid)
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        stop_pids(below, grace=2.0)


@contextlib.contextmanager
def studio(prospero, work, name, extra_env=None):
    process, url, log = start_studio(prospero, work, name, extra_env)
    try:
        yield url
    finally:
        stop_studio(process)


@contextlib.contextmanager
def browser(extra_flags=(), width=1280, height=900):
    """core_browser.py's headless Chromium (the tests' flags); chromedriver and its Chromium stopped by pid after."""
    from core_browser import studio_browser
    holder = {}
    try:
        with studio_browser(width=width, height=height, extra_flags=extra_flags) as driver:
            holder["pid"] = driver.service.process.pid
            holder["below"] = descendants(holder["pid"])
            yield driver
    finally:
        pid = holder.get("pid")
        if pid:
            stop_pids([pid] + holder["below"] + descendants(pid), grace=3.0)


# ---- Helpers on the page.

def by_testid(driver, testid):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


class NotMeasured(Exception):
    pass


def wait_for(condition, what, timeout=BOUND):
    """Polls `condition()` until truthy; a bound for an outcome (the figure is timed apart), NotMeasured after it."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # not there yet
            stop_requested()
            last = error
        time.sleep(0.05)
    raise NotMeasured(f"no {what} within {timeout:.0f} s (last: {last!r})")


def press(driver, testid):
    """A real click on the control, scrolled to the middle first (the audio bar covers the bottom of the window)."""
    element = by_testid(driver, testid)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", element)
    element.click()


def connected(driver):
    wait_for(lambda: by_testid(driver, "connection-state").text == "connected", "connection")


def activate(driver):
    """Makes the page's instrument the active one when another plays (js/active.js's notice)."""
    wait_for(lambda: driver.execute_script("return window.studio && window.studio.welcomed"), "welcome")
    time.sleep(0.5)  # the notice shows once the page has the studio's state
    driver.execute_script("const n = document.getElementById('not-active'); if (n && !n.hidden) document.getElementById('activate').click();")
    wait_for(lambda: driver.execute_script("const n = document.getElementById('not-active'); return !n || n.hidden;"), "the instrument active")


def quantile(values, q):
    """The q-quantile by linear interpolation between order statistics."""
    s = sorted(values)
    if not s:
        return None
    k = (len(s) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# ---- Rows.

class Table:
    HEADER = "| part | figure | measured | target | verdict |\n|---|---|---|---|---|"

    def __init__(self):
        self.missed = []
        print(self.HEADER, flush=True)

    def row(self, part, figure, measured, target=None, met=None):
        """`met` None: reported only. A figure that could not be measured and has a target misses it."""
        verdict = "reported" if met is None else "met" if met else "**missed**"
        if met is False:
            self.missed.append(f"{part}: {figure}: {target} (measured {measured})")
        cells = [part, figure, measured, target or "—", verdict]
        print("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |", flush=True)

    def failed(self, part, figure, why, target):
        self.row(part, figure, f"not measured ({why})", target, False)


def ms(v):
    return "none" if v is None else f"{v:.1f} ms"


# ---- 1. Browser audio.

def bench_audio(table, prospero, work, seconds):
    part = "audio"
    targets = ["dropouts", "frames", "lost", "longest gap", "fill", "latency"]
    try:
        with studio(prospero, work, "audio") as url, browser() as driver:
            stats = lambda: driver.execute_script("return window.prosperoAudio && window.prosperoAudio.stats()")
            driver.get(url + "tone/")
            connected(driver)
            by_testid(driver, "tone-reference").click()
            wait_for(lambda: by_testid(driver, "tone-readout").text == "1000 Hz, -18 dBFS", "test tone")
            wait_for(lambda: by_testid(driver, "audio-listen"), "Listen control").click()
            wait_for(lambda: (stats() or {}).get("playing"), "playback")
            progress(f"audio: playing; 1 s to settle, then {seconds:g} s steady")
            time.sleep(1.0)
            driver.execute_script("window.prosperoAudio.resetGapForTest()")
            before, start = stats(), time.monotonic()
            fills, latencies = [], []
            while time.monotonic() - start < seconds:
                time.sleep(0.5)
                s = stats()
                fills.append(s["fillMs"])
                latencies.append(float(by_testid(driver, "audio-indicator").get_attribute("data-latency") or "nan"))
            after, elapsed = stats(), time.monotonic() - start
    except NotMeasured as error:
        for name in targets:
            table.failed(part, name, str(error), "")
        return

    dropouts = after["dropouts"] - before["dropouts"]
    frames = after["frames"] - before["frames"]
    gap = after["maxGapMs"]
    want_frames = TARGETS["audio.frames_per_second"] * elapsed
    table.row(part, f"dropouts in {elapsed:.1f} s of steady playback", str(dropouts),
              f"= {TARGETS['audio.dropouts']} (idle machine)", dropouts == TARGETS["audio.dropouts"])
    table.row(part, f"frames played in {elapsed:.1f} s (256-frame blocks; 187.5 a second)", f"{frames} ({frames / elapsed:.1f} a second)",
              f"≥ {want_frames:.0f} ({TARGETS['audio.frames_per_second']} a second)", frames >= want_frames)
    table.row(part, "frames lost (sequence gaps) since Listen", str(after["lost"]), f"= {TARGETS['audio.lost']}",
              after["lost"] == TARGETS["audio.lost"])
    table.row(part, "longest wait between frames", ms(gap),
              f"— (groups every 32 ms; ≥ {TARGETS['audio.stall_gap_ms']} ms is a delivery stall)", None)
    low, high = TARGETS["audio.fill_ms_after_stall"] if gap >= TARGETS["audio.stall_gap_ms"] else TARGETS["audio.fill_ms"]
    fill = quantile(fills, 0.5)
    table.row(part, "buffer fill (smoothed; median of 2 a second)", f"{fill:.1f} ms (range {min(fills):.1f} … {max(fills):.1f}, end {after['fillMs']:.1f})",
              f"{low} … {high} ms (target 40 ms)", low <= fill <= high)
    latency = quantile([l for l in latencies if not math.isnan(l)], 0.5)
    lo, hi = TARGETS["audio.latency_ms"]
    table.row(part, "indicator's latency (fill + output latency; median of 2 a second)",
              f"{latency:.1f} ms (range {min(latencies):.1f} … {max(latencies):.1f})" if latency is not None else "none",
              f"{lo} … {hi} ms", latency is not None and lo <= latency <= hi)


# ---- 2. Haptics in the games page.

# games_play.py's recorder, before any page script: each navigator.vibrate call with its performance.now().
VIBRATE_STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, writable: true,
  value: function (p) { window.__vibrations.push({ t: performance.now(), p: Array.isArray(p) ? p.slice() : [p] }); return true; } });
"""

# This script's own clock sync, independent of the page's code (as games_play.py's): a second socket, 12 `clock`
# round trips, the shortest wins (page ms = audio·1000 − offset, give or take half its round trip).
CLOCK_SYNC = """
const done = arguments[arguments.length - 1];
const ws = new WebSocket(`ws://${location.host}/ws`);
const samples = [];
ws.onopen = () => ws.send(JSON.stringify({ type: "hello", client: null, subscribe: [] }));
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === "welcome") { ws.send(JSON.stringify({ type: "clock", t: performance.now() })); return; }
  if (m.type !== "clock" || typeof m.audio !== "number") return;
  const now = performance.now(), rtt = now - m.t;
  samples.push({ rtt, offset: m.audio * 1000 - (m.t + rtt / 2) });
  if (samples.length < 12) { setTimeout(() => ws.send(JSON.stringify({ type: "clock", t: performance.now() })), 20); return; }
  ws.close();
  samples.sort((a, b) => a.rtt - b.rtt);
  done(samples[0]);
};
"""

# The removed scheduler check on the real clock: a HapticPlayer of the page's code (haptics.js) of its own, on the
# page's clock and the page's session clock, apart from the game's player (nothing the game sends enters it). COUNT
# bursts, each due AHEAD ms after it is given, one every SPACING ms (so none replaces another); each vibrate call's time
# minus its due time (the player's `at`).
AHEAD = """
const [PATTERN, COUNT, AHEAD, SPACING, done] = arguments;
(async () => {
  const { HapticPlayer } = await import("/games/haptics.js");
  const clock = window.games.clock, calls = [];
  const indicator = document.createElement("div");
  indicator.append(document.createElement("canvas"));
  const player = new HapticPlayer({ clock, indicator, vibrate: (p) => { calls.push(performance.now()); return true; } });
  const wait = (t) => new Promise((r) => setTimeout(r, t));
  const out = [];
  for (let i = 1; i <= COUNT; i++) {
    const n = calls.length;
    player.play({ serial: i, time: clock.now() + AHEAD / 1000, pattern: PATTERN, events: [], peak: 1 });
    await wait(SPACING);
    const e = player.log.find((x) => x.serial === i);
    out.push({ at: e.at, received: e.received, fired: e.fired, cut: e.cut, calls: calls.slice(n) });
  }
  done(out);
})();
"""


def touch(driver, kind, x, y):
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 0, "radiusX": 8, "radiusY": 8, "force": 1}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def bench_haptics(table, prospero, work, seconds):
    part = "haptics"
    game_target = f"p95 ≤ {TARGETS['haptics.p95_ms']} ms"
    ahead_target = f"p95 ≤ {TARGETS['haptics.ahead_p95_ms']} ms, earliest ≥ {TARGETS['haptics.ahead_earliest_ms']} ms, every one called"
    try:
        with studio(prospero, work, "games") as url, browser(width=412, height=860) as driver:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": VIBRATE_STUB})
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
            driver.get(url + "games/vibe/")
            wait_for(lambda: driver.execute_script("return window.studio && window.studio.welcomed"), "welcome")
            by_testid(driver, "game-start-button").click()
            wait_for(lambda: not by_testid(driver, "game-start").is_displayed(), "the start overlay gone")
            wait_for(lambda: driver.execute_script("return window.games.clock.ready"), "the page's clock sync")
            wait_for(lambda: driver.execute_script("return window.studio.lastWelcome && document.getElementById('readout').textContent.length > 0"),
                     "the first frame")
            left, top, w, h = driver.execute_script("const r = document.getElementById('stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
            x = left + 0.7 * w
            progress(f"haptics: Feel Your Vibe, swiping for {seconds:g} s")
            touch(driver, "touchStart", x, top + 0.3 * h)
            start, k = time.monotonic(), 0
            while time.monotonic() - start < seconds:
                y0, y1 = (0.3, 0.7) if k % 2 == 0 else (0.7, 0.3)
                for step in range(1, 7):
                    time.sleep(0.05)
                    touch(driver, "touchMove", x, top + (y0 + (y1 - y0) * step / 6) * h)
                k += 1
            touch(driver, "touchEnd", 0, 0)
            time.sleep(1.0)
            page = driver.execute_script("const { clock, player } = window.games; return {offset: clock.offset, log: player.log, "
                                         "now: performance.now(), vibrations: window.__vibrations.filter((v) => !(v.p.length === 1 && v.p[0] === 0))}")
            sync = driver.execute_async_script(CLOCK_SYNC)
            pattern = next((e["pattern"] for e in page["log"] if len(e["pattern"]) >= 3), None) or [40, 30, 60]
            count = 30
            progress(f"haptics: {count} bursts due 300 ms ahead through the page's HapticPlayer on its real clock")
            ahead = driver.execute_async_script(AHEAD, pattern, count, 300, 400)
    except NotMeasured as error:
        table.failed(part, "vibrate call − due time, the game's bursts", str(error), game_target)
        table.failed(part, "vibrate call − due time, bursts due 300 ms ahead", str(error), ahead_target)
        return

    # The game's bursts: each one the page played whole (cut 0), its call (the one made as it fired) against its due
    # time by this script's clock sync. Late deliveries (cut, played at once), replaced and too-late ones are counted.
    offset = sync["offset"] if sync else page["offset"]
    calls = list(page["vibrations"])
    cutoff = page["now"] - 150
    lateness, page_late, cut, unplayed, judged = [], [], 0, 0, 0
    for e in page["log"]:
        due = e["time"] * 1000 - offset
        if due > cutoff:
            continue
        judged += 1
        if e.get("fired") is None or not e.get("played"):
            unplayed += 1
            continue
        if e.get("cut", 0) > 0:
            cut += 1
            continue
        call = next((c for c in calls if c["t"] >= e["fired"] - 1 and c["t"] - e["fired"] <= 5), None)
        if call is None:
            unplayed += 1
            continue
        calls.remove(call)
        lateness.append(call["t"] - due)
        page_late.append(call["t"] - e["at"])
    if lateness:
        p95 = quantile(lateness, 0.95)
        table.row(part, f"vibrate call − due time, Feel Your Vibe's bursts played whole ({len(lateness)} of {judged}; "
                        f"{cut} delivered late and cut, {unplayed} replaced or not played; clock sync ±{sync['rtt'] / 2 if sync else float('nan'):.1f} ms)",
                  f"median {quantile(lateness, 0.5):.1f} ms, p95 {p95:.1f} ms, max {max(lateness):.1f} ms, min {min(lateness):.1f} ms, largest |call − due| {max(abs(v) for v in lateness):.1f} ms "
                  f"(against the page's own due times: median {quantile(page_late, 0.5):.1f} ms, p95 {quantile(page_late, 0.95):.1f} ms; "
                  f"its clock offset {page['offset'] - offset:+.1f} ms from this script's)",
                  game_target, p95 <= TARGETS["haptics.p95_ms"])
    else:
        table.failed(part, "vibrate call − due time, the game's bursts", f"no burst played whole of {judged}", game_target)

    late = [c["calls"][0] - c["at"] for c in ahead if c["calls"]]
    silent = len(ahead) - len(late)
    if late:
        p95, earliest = quantile(late, 0.95), min(late)
        cuts = sum(1 for c in ahead if c["cut"] > 0)
        table.row(part, f"vibrate call − due time, {len(ahead)} bursts due 300 ms ahead (page's player, real clock; {cuts} cut, {silent} without a call)",
                  f"median {quantile(late, 0.5):.1f} ms, p95 {p95:.1f} ms, max {max(late):.1f} ms, min {earliest:.1f} ms",
                  ahead_target, p95 <= TARGETS["haptics.ahead_p95_ms"] and earliest >= TARGETS["haptics.ahead_earliest_ms"] and silent == 0)
    else:
        table.failed(part, "vibrate call − due time, bursts due 300 ms ahead", "no call", ahead_target)


# ---- 3. Page cameras.

# hecate_camera.py's video: 30 frames at 30 fps (Chromium loops the file), 4:2:0; the photograph's 320x240 part around
# the face (the largest frame a page sends), or the whole image given (the drawn hand is 320x240).
MAKE_Y4M = r"""
import sys, cv2
source, out, crop = sys.argv[1], sys.argv[2], sys.argv[3] == "crop"
image = cv2.imread(source)
if crop:
    image = image[0:240, 40:360]
h, w = image.shape[:2]
planes = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes()
with open(out, "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F30:1 Ip A1:1 C420jpeg\n" % (w, h))
    for _ in range(30):
        f.write(b"FRAME\n" + planes)
"""


def venv_python(venv):
    return os.path.join(venv, "bin", "python")


def photograph(venv):
    lib = os.path.join(venv, "lib")
    for python in sorted(os.listdir(lib)) if os.path.isdir(lib) else []:
        path = os.path.join(lib, python, "site-packages", "skimage", "data", "astronaut.png")
        if os.path.isfile(path):
            return path
    return None


def run_checked(args, what):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SetupError(f"{what} failed: {done.stderr[-2000:]}")


def make_videos(venv, work):
    python, photo = venv_python(venv), photograph(venv)
    face = os.path.join(work, "face.y4m")
    run_checked([python, "-c", MAKE_Y4M, photo, face, "crop"], "making the face video")
    hand_png, hand = os.path.join(work, "hand.png"), os.path.join(work, "hand.y4m")
    run_checked([python, os.path.join(ROOT, "scripts", "camera", "drawn_hand.py"), hand_png], "drawn_hand.py")
    run_checked([python, "-c", MAKE_Y4M, hand_png, hand, "whole"], "making the hand video")
    return face, hand


def camera_flags(video):
    # As hecate_camera.py: no GPU process (software canvases read a video frame back in ~1 ms), the fake camera reading
    # the video, the permission granted.
    return ["--disable-gpu", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={video}", "--use-fake-ui-for-media-stream"]


# Stamps in the page's own time: the click on the camera toggle (a capturing listener) and the first answer that
# finds something (a listener of the page's connection beside the camera's own).
WATCH = """
const [expression] = arguments;
const found = new Function("m", "return " + expression);
window.__bench = { clickAt: null, foundAt: null };
document.addEventListener("click", (e) => {
  if (e.target.closest('[data-testid="camera-toggle"]') && window.__bench.clickAt === null) window.__bench.clickAt = performance.now();
}, true);
window.studio.on("camera", (m) => {
  if (window.__bench.clickAt !== null && window.__bench.foundAt === null && m.source !== "studio" && found(m)) window.__bench.foundAt = performance.now();
});
"""


def sent_rate(driver, camera):
    """Frames the page sent a second over RATE_SECONDS (page time)."""
    read = f"return [window.{camera}.sent, performance.now()]"
    s0, t0 = driver.execute_script(read)
    time.sleep(RATE_SECONDS)
    s1, t1 = driver.execute_script(read)
    return (s1 - s0) / ((t1 - t0) / 1000)


def latency_rows(table, part, driver, count):
    wait_for(lambda: int(by_testid(driver, "camera-latency").get_attribute("data-count") or 0) >= count, f"{count} frames applied")
    lat = by_testid(driver, "camera-latency")
    get = lambda name: float(lat.get_attribute(name))
    median, p95 = get("data-median"), get("data-p95")
    server_median, server_p95 = get("data-server-median"), get("data-server-p95")
    table.row(part, f"latency sent → applied (the readout: the last ≤ 256 of {lat.get_attribute('data-count')} frames applied; {lat.get_attribute('data-dropped')} dropped)",
              f"median {median:.1f} ms, p95 {p95:.1f} ms", None, None)
    factor, plus = TARGETS["camera.server_share"]
    table.row(part, "the server's share: received → applied", f"median {server_median:.1f} ms, p95 {server_p95:.1f} ms",
              f"median ≤ {factor} × {median:.1f} + {plus:g} ms", 0 <= server_median <= median * factor + plus)


def first_found(table, part, driver, camera, expression, what, cold):
    """Clicks the camera toggle and times the first answer with `what` in it (page time)."""
    driver.execute_script(WATCH, expression)
    press(driver, "camera-toggle")
    wait_for(lambda: driver.execute_script("return window.__bench.foundAt"), what)
    found = driver.execute_script("return (window.__bench.foundAt - window.__bench.clickAt) / 1000")
    limit = TARGETS["camera.found_s"]
    if cold:
        table.row(part, f"{what} after the click (the bridge cold: its first frame starts it)", f"{found:.2f} s", f"≤ {limit:g} s", found <= limit)
    else:
        table.row(part, f"{what} after the click again (the bridge running)", f"{found:.2f} s", None, None)


def bench_face(table, driver, url):
    part = "camera (Hecate)"
    driver.get(url + "hecate/?guide=0&renderer=2d")
    connected(driver)
    activate(driver)
    progress("camera: Hecate's Use camera (the bridge starts with the first frame)")
    first_found(table, part, driver, "hecateCamera", "m.face === true", "face found", cold=True)
    wait_for(lambda: by_testid(driver, "face-status").get_attribute("data-face") == "found", "Hecate's face found")
    rate = sent_rate(driver, "hecateCamera")
    size = driver.execute_script("return [window.hecateCamera.grab.width, window.hecateCamera.grab.height]")
    table.row(part, f"frames sent a second ({size[0]}x{size[1]}, over {RATE_SECONDS:g} s)", f"{rate:.1f}", f"≤ {TARGETS['camera.fps']} (at most 30)",
              rate <= TARGETS["camera.fps"])
    latency_rows(table, part, driver, FACE_LATENCY_COUNT)
    # Stop and start again: the bridge runs now.
    press(driver, "camera-toggle")
    wait_for(lambda: by_testid(driver, "face-status").get_attribute("data-face") == "lost", "the face lost on Stop camera")
    first_found(table, part, driver, "hecateCamera", "m.face === true", "face found", cold=False)
    # The face gone: Immerse (2D) in silence.
    press(driver, "camera-toggle")
    wait_for(lambda: by_testid(driver, "face-status").get_attribute("data-face") == "lost", "the face lost on Stop camera")
    press(driver, "mode-immerse")
    canvas = lambda: by_testid(driver, "immerse-canvas")
    wait_for(lambda: canvas().get_attribute("data-rate") == "idle", "Immerse idle in silence")
    read = "const c = document.querySelector('[data-testid=immerse-canvas]'); return [Number(c.dataset.frames), c.dataset.rate, c.dataset.renderer, performance.now()]"
    f0, _, renderer, t0 = driver.execute_script(read)
    time.sleep(RATE_SECONDS)
    f1, rate_now, _, t1 = driver.execute_script(read)
    fps = (f1 - f0) / ((t1 - t0) / 1000)
    lo, hi = TARGETS["camera.idle_fps"]
    table.row(part, f"Immerse ({renderer}) in silence after the face has gone, over {RATE_SECONDS:g} s (still {rate_now})",
              f"{fps:.1f} fps", f"{lo:g} … {hi:g} fps ({IDLE_FPS_EXPECTED} expected)", lo <= fps <= hi and rate_now == "idle")


def bench_hands(table, driver, url):
    part = "camera (Hands)"
    driver.get(url + "hands/")
    connected(driver)
    activate(driver)
    progress("camera: the Hands page's Camera")
    first_found(table, part, driver, "handsCamera", "Array.isArray(m.hands) && m.hands.length > 0", "hand found", cold=True)
    rate = sent_rate(driver, "handsCamera")
    size = driver.execute_script("return [window.handsCamera.grab.width, window.handsCamera.grab.height]")
    table.row(part, f"frames sent a second ({size[0]}x{size[1]}, over {RATE_SECONDS:g} s)", f"{rate:.1f}", f"≤ {TARGETS['camera.fps']} (at most 30)",
              rate <= TARGETS["camera.fps"])
    latency_rows(table, part, driver, HANDS_LATENCY_COUNT)
    press(driver, "camera-toggle")


def bench_camera(table, prospero, work, venv):
    face_video, hand_video = make_videos(venv, work)
    env = {"PROSPERO_CAMERA_VENV": venv}
    # Each page in a studio of its own, so that its first frame starts a bridge of its own (cold, as in the tests).
    for name, video, run in (("face", face_video, bench_face), ("hands", hand_video, bench_hands)):
        try:
            with studio(prospero, work, f"camera-{name}", env) as url, browser(extra_flags=camera_flags(video)) as driver:
                run(table, driver, url)
        except Exception as error:  # NotMeasured, or Chromium / chromedriver / the page failing
            stop_requested()
            table.failed(f"camera ({'Hecate' if name == 'face' else 'Hands'})", "the rest of this part",
                         f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}", "every target of the part")


# ---- Main.

def main():
    parser = argparse.ArgumentParser(prog="scripts/bench/browser", add_help=True)
    parser.add_argument("--bin", required=True, help="the directory of prospero and prospero-studio")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0, help="steady audio and swiping time (default 20)")
    parser.add_argument("--venv", default=os.environ.get("PROSPERO_CAMERA_VENV", os.path.join(ROOT, ".venv-camera")))
    parser.add_argument("part", nargs="?", default="all", choices=["audio", "haptics", "camera", "all"])
    try:
        args = parser.parse_args()
    except SystemExit as exit_:
        sys.exit(2 if exit_.code else 0)
    if args.seconds <= 0:
        print("browser bench: --seconds must be above 0", file=sys.stderr)
        sys.exit(2)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    become_subreaper()

    prospero = os.path.join(args.bin, "prospero")
    problems = []
    if not os.access(prospero, os.X_OK) or not os.access(os.path.join(args.bin, "prospero-studio"), os.X_OK):
        problems.append(f"no prospero and prospero-studio in {args.bin} (swift build -c release --product prospero-studio, and --product prospero)")
    sys.dont_write_bytecode = True  # nothing written beside the tests
    sys.path.insert(0, BROWSER_TESTS)
    try:
        import core_browser
        for path in (core_browser.CHROMIUM, core_browser.CHROMEDRIVER):
            if not os.access(path, os.X_OK):
                problems.append(f"{path} is missing (scripts/deps/studio.apt; scripts/test installs it as root)")
    except ImportError as error:
        problems.append(f"selenium does not import ({error}; scripts/deps/studio.pip; scripts/test installs it as root)")
    if args.part in ("camera", "all") and (not os.access(venv_python(args.venv), os.X_OK) or not photograph(args.venv)):
        problems.append(f"no camera environment with the test photograph at {args.venv} (scripts/camera-setup --test)")
    if problems:
        for p in problems:
            print(f"browser bench: {p}", file=sys.stderr)
        sys.exit(2)

    load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"browser bench {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, host {os.cpu_count()} cores, "
          f"load {load()} (`scripts/bench/browser{' --check' if args.check else ''} {args.part}`)", flush=True)
    print(flush=True)
    status = 0
    work = tempfile.mkdtemp(prefix="prospero-browser-bench-")
    table = None
    try:
        table = Table()
        parts = ["audio", "haptics", "camera"] if args.part == "all" else [args.part]
        for part in parts:
            progress(f"{part}, load {load()}")
            try:
                if part == "audio":
                    bench_audio(table, prospero, work, args.seconds)
                elif part == "haptics":
                    bench_haptics(table, prospero, work, args.seconds)
                else:
                    bench_camera(table, prospero, work, args.venv)
            except SetupError:
                raise
            except Exception as error:  # Chromium, chromedriver or the page failed: the part is not measured
                stop_requested()
                table.failed(part, "the rest of this part", f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}",
                             "every target of the part")
        print(flush=True)
        print(f"load after {load()}", flush=True)
        if args.check:
            for miss in table.missed:
                progress(f"missed: {miss}")
            status = 1 if table.missed else 0
    except SetupError as error:
        progress(str(error))
        status = 2
    except Stop as stopped:
        progress(f"stopped by signal {stopped.args[0]}")
        status = 128 + stopped.args[0]
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        stop_everything()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
