"""The three games end to end in headless Chromium against an in-process studio (GamesBrowserTests).

Phone-sized window. For each game: the page loads with no console errors and every control has an
aria-label and a data-testid; `navigator.vibrate` is replaced before any page script runs (DevTools
Page.addScriptToEvaluateOnNewDocument) by a recorder of (performance.now(), pattern); the tap-to-start
overlay is clicked; then the game is played by scripted pointer events:
- Harmony With Me (mouse): a tap beside the circle (missed: a red mark, no phrase) and one on it (hit: a
  green mark, one phrase);
- Feel Your Vibe (touch points): up-and-down swipes at x = 0.7, a half cycle every 0.3 s;
- Touch for Music (touch points): a hold at y = 0.25, then nothing until the home button shows, which
  leads back to the games menu on Home.
After each game, the page's haptic scheduler gets two bursts of known times (SCHEDULE_CHECK), so the on-time
path is checked even when the machine is loaded and every burst of the game itself arrives late.
This script measures its own mapping of the server's session clock to the page's performance.now() with
its own WebSocket (the protocol's `clock` message), independent of the page's code, and writes what it
saw as JSON for the Swift test, which compares it with the instruments' bursts and models.

Usage: games_play.py BASE_URL SCREENSHOT_DIR RESULT.json"""
import json
import sys
import time

from core_browser import studio_browser, console_errors, by_testid, wait_for, fail, cpu_stall_seconds
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

base, shots, result_path = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]

STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, writable: true,
  value: function (p) { window.__vibrations.push({ t: performance.now(), p: Array.isArray(p) ? p.slice() : [p] }); return true; } });
"""

# This script's own clock sync: a second socket, 12 `clock` round trips, the shortest wins.
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
setTimeout(() => done(null), 5000);
"""


# The page's scheduler on its own, with bursts of known times (after a game's results are taken, so these calls
# are not among the game's): one due 300 ms ahead must vibrate at its time, never early; one 200 ms past its
# time must vibrate at once with its first 200 ms cut. A 10 ms interval probes the page's main thread while the
# first waits: the test accepts a late call only as far as the main thread itself was held up (a loaded machine).
SCHEDULE_CHECK = """
const done = arguments[arguments.length - 1];
const { clock, player } = window.games;
const vib = window.__vibrations;
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
let last = performance.now(), stall = 0;
const probe = setInterval(() => { const now = performance.now(); stall = Math.max(stall, now - last); last = now; }, 10);
(async () => {
  let n = vib.length;
  const ahead = { serial: player.lastSerial + 1, time: clock.now() + 0.3, pattern: [40, 30, 60], events: [], peak: 1 };
  const aheadAt = clock.perfAt(ahead.time);
  player.play(ahead);
  // At least 600 ms, and until a wait that began after the burst's time has ended: the burst's own timer, due
  // earlier, has then run, however late a loaded machine ran the page's timers (once a fixed 600 ms saw none).
  const started = performance.now();
  for (;;) {
    const before = performance.now();
    await wait(20);
    if ((before > aheadAt + 5 && performance.now() - started >= 600) || performance.now() - started > 10000) break;
  }
  clearInterval(probe);
  // A burst from the game itself in the meantime (a later serial) can replace this one, by design: then the check
  // says so, and is made again.
  const intruded = player.lastSerial !== ahead.serial;
  const aheadCalls = vib.slice(n);
  n = vib.length;
  const past = { serial: player.lastSerial + 1, time: clock.now() - 0.2, pattern: [150, 50, 100], events: [], peak: 1 };
  const pastAt = clock.perfAt(past.time);
  player.play(past);
  await wait(100);
  const entry = (serial) => player.log.find((e) => e.serial === serial) ?? null;
  done({ ahead: { at: aheadAt, pattern: ahead.pattern, calls: aheadCalls, entry: entry(ahead.serial), stall, intruded },
         past: { at: pastAt, pattern: past.pattern, calls: vib.slice(n), entry: entry(past.serial) } });
})();
"""


def schedule_check(driver, game):
    """The scheduler check, made again (up to four times) while a burst of the game came during it."""
    for _ in range(4):
        checked = driver.execute_async_script(SCHEDULE_CHECK)
        if not checked:
            fail(f"{game}: the scheduler check gave nothing")
        if not checked["ahead"].get("intruded"):
            return checked
        print(f"{game}: a burst of the game came during the scheduler check; checked again", file=sys.stderr)
    fail(f"{game}: a burst of the game came during each of four scheduler checks")


def touch(driver, kind, x, y):
    """One finger (id 0) as a DevTools touch point at page pixels (x, y)."""
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 0, "radiusX": 8, "radiusY": 8, "force": 1}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def check_labels(driver):
    missing = driver.execute_script("""
      return [...document.querySelectorAll('button, input, a, select, [role=application]')]
        .filter((e) => !e.closest('[hidden]'))
        .filter((e) => !e.getAttribute('aria-label') || !e.dataset.testid).map((e) => e.outerHTML.slice(0, 80));""")
    if missing:
        fail(f"controls without aria-label or data-testid: {missing}")


def open_game(driver, game):
    driver.get(f"{base}/games/{game}/")
    wait_for(lambda: driver.execute_script("return window.studio && window.studio.welcomed"), what=f"{game}: welcome")
    check_labels(driver)
    if driver.execute_script("return getComputedStyle(document.getElementById('stage')).touchAction") != "none":
        fail(f"{game}: the stage must have touch-action: none")
    switches = driver.execute_script("return [...document.querySelectorAll('input[type=checkbox][switch]')].length")
    if switches < 2:
        fail(f"{game}: the tap targets must hold native switch inputs (iOS ticks), found {switches}")
    by_testid(driver, "game-start-button").click()
    wait_for(lambda: not by_testid(driver, "game-start").is_displayed(), what=f"{game}: the start overlay goes")
    wait_for(lambda: driver.execute_script("return window.games.clock.ready"), what=f"{game}: the page's clock sync")
    wait_for(lambda: driver.execute_script(f"return window.studio.lastWelcome && document.getElementById('readout').textContent.length > 0"),
             what=f"{game}: the first frame")
    sync = driver.execute_async_script(CLOCK_SYNC)
    if not sync:
        fail(f"{game}: no clock answer on the test's own socket")
    return sync


def stage_box(driver):
    return driver.execute_script("const r = document.getElementById('stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")


def page_log(driver):
    return driver.execute_script("return {offset: window.games.clock.offset, samples: window.games.clock.samples, log: window.games.player.log, now: performance.now()}")


def vibrations(driver):
    return [v for v in driver.execute_script("return window.__vibrations") if v["p"] != [0]]


results = {}
with studio_browser(width=412, height=860) as driver:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STUB})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    # Harmony With Me, with the mouse.
    sync = open_game(driver, "harmony")
    circle = wait_for(lambda: driver.execute_script(
        "const c = document.getElementById('circle'); return c.dataset.state === 'shown' && !c.hidden ? [+c.dataset.x, +c.dataset.y, +c.dataset.r] : null"),
        timeout=8, what="harmony: the circle appears with the music")
    time.sleep(0.4)  # the appear transition, for the screenshot
    driver.save_screenshot(f"{shots}/games-harmony.png")
    left, top, w, h = stage_box(driver)
    cx, cy, r = circle
    miss_x = cx - 2 * r if cx > 0.5 else cx + 2 * r
    body = driver.find_element(By.TAG_NAME, "body")

    def click_at(fx, fy):
        # Offsets from the body's centre (Selenium 4 moves to the element's centre first).
        bw, bh = driver.execute_script("return [document.body.clientWidth, document.body.clientHeight]")
        ActionChains(driver).move_to_element_with_offset(body, int(left + fx * w - bw / 2), int(top + fy * h - bh / 2)).click().perform()

    click_at(miss_x, cy)
    wait_for(lambda: driver.execute_script("return document.querySelector('[data-testid=mark-miss]') !== null"), what="harmony: a miss mark")
    time.sleep(0.3)
    if driver.execute_script("return document.getElementById('readout').dataset.phrases") != "0":
        fail("harmony: a tap beside the circle played a phrase")
    # The hit: the circle shown now, clicked at once. A circle lasts one bar, which a loaded machine can spend
    # on the screenshot and the miss; then the next circle is the one to hit (at most four tries).
    shown = "const c = document.getElementById('circle'); return c.dataset.state === 'shown' && !c.hidden ? [+c.dataset.x, +c.dataset.y, +c.dataset.r] : null"
    hit = "return document.querySelector('[data-testid=mark-hit]') !== null"
    for attempt in range(4):
        circle = wait_for(lambda: driver.execute_script(shown), timeout=8, what="harmony: a circle to hit")
        click_at(circle[0], circle[1])
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and not driver.execute_script(hit):
            time.sleep(0.05)
        if driver.execute_script(hit):
            break
        print(f"harmony: try {attempt + 1} missed its circle (gone before the click landed); the next one", flush=True)
    wait_for(lambda: driver.execute_script(hit), what="harmony: a hit mark")
    wait_for(lambda: driver.execute_script("return document.getElementById('readout').dataset.phrases") == "1", what="harmony: one phrase")
    wait_for(lambda: driver.execute_script("return document.getElementById('circle').dataset.state") == "hit", what="harmony: the circle's hit state")
    wait_for(lambda: vibrations(driver), what="harmony: navigator.vibrate called")
    time.sleep(0.3)
    results["harmony"] = {"page": page_log(driver), "sync": sync, "vibrations": vibrations(driver), "circle": circle,
                          "phrases": int(driver.execute_script("return document.getElementById('readout').dataset.phrases"))}
    results["harmony"]["scheduled"] = schedule_check(driver, "harmony")
    errors = console_errors(driver)
    if errors:
        fail(f"harmony: console errors: {errors}")

    # Feel Your Vibe, with a finger.
    sync = open_game(driver, "vibe")
    left, top, w, h = stage_box(driver)
    x = left + 0.7 * w
    touch(driver, "touchStart", x, top + 0.3 * h)
    sent = []  # (monotonic time after the move was dispatched, y)
    for k in range(6):
        # A half cycle every 0.3 s or so, in small steps (a finger's move events).
        y0, y1 = (0.3, 0.7) if k % 2 == 0 else (0.7, 0.3)
        for step in range(1, 7):
            time.sleep(0.05)
            y = y0 + (y1 - y0) * step / 6
            touch(driver, "touchMove", x, top + y * h)
            sent.append((time.monotonic(), y))
    # The rate from this script's own timing: crossings of y = 0.5 interpolated between moves,
    # f = 1 / (2 Δt) per pair, the mean of the last four.
    crossings = []
    for (t0, a), (t1, b) in zip(sent, sent[1:]):
        if (a - 0.5 < 0) != (b - 0.5 < 0):
            crossings.append(t0 + (0.5 - a) / (b - a) * (t1 - t0) if b != a else t0)
    rates = [min(10, max(0.1, 1 / (2 * (b - a)))) for a, b in zip(crossings, crossings[1:]) if b > a]
    script_rate = sum(rates[-4:]) / len(rates[-4:]) if rates else 0
    time.sleep(0.3)
    driver.save_screenshot(f"{shots}/games-vibe.png")
    touch(driver, "touchEnd", 0, 0)
    time.sleep(0.3)
    readout = driver.execute_script("const d = document.getElementById('readout').dataset; return [+d.frequency, +d.depth]")
    results["vibe"] = {"page": page_log(driver), "sync": sync, "vibrations": vibrations(driver), "frequency": readout[0], "depth": readout[1],
                       "scriptRate": script_rate}
    results["vibe"]["scheduled"] = schedule_check(driver, "vibe")
    errors = console_errors(driver)
    if errors:
        fail(f"vibe: console errors: {errors}")

    # Touch for Music, with a finger; then the home button after inactivity.
    sync = open_game(driver, "touch")
    left, top, w, h = stage_box(driver)
    touch(driver, "touchStart", left + 0.4 * w, top + 0.5 * h)
    for s in range(1, 6):
        time.sleep(0.05)
        touch(driver, "touchMove", left + 0.4 * w, top + (0.5 - 0.05 * s) * h)
    wait_for(lambda: abs(float(driver.execute_script("return document.getElementById('readout').dataset.volume") or 0) - 0.75) < 0.01,
             what="touch: the hold's volume (1 − 0.25)")
    time.sleep(0.3)
    driver.save_screenshot(f"{shots}/games-touch.png")
    touch(driver, "touchEnd", 0, 0)
    released, stalled_at_release = time.monotonic(), cpu_stall_seconds()
    time.sleep(0.3)
    volume = float(driver.execute_script("return document.getElementById('readout').dataset.volume"))
    results["touch"] = {"page": page_log(driver), "sync": sync, "vibrations": vibrations(driver), "volume": volume}
    with open(result_path, "w") as f:
        json.dump(results, f)  # so far (a failure below still leaves what was seen)
    home = wait_for(lambda: by_testid(driver, "game-home") if by_testid(driver, "game-home").is_displayed() else None,
                    timeout=8, what="touch: the home button after inactivity")
    waited = time.monotonic() - released
    # The seconds in which some task waited for a CPU meanwhile: on a busy machine the page's timer and this poll
    # run late by about that much, and the test judges the timeout on the time the machine gave.
    stalled = (cpu_stall_seconds() - stalled_at_release) if stalled_at_release is not None else 0.0
    results["touch"] = {"page": page_log(driver), "sync": sync, "vibrations": vibrations(driver), "volume": volume,
                        "homeAfter": waited, "stalledMeanwhile": stalled}
    results["touch"]["scheduled"] = schedule_check(driver, "touch")
    errors = console_errors(driver)
    if errors:
        fail(f"touch: console errors: {errors}")
    home.click()
    wait_for(lambda: driver.execute_script("return location.pathname === '/' && location.hash === '#games'"), what="home: back on Home")
    wait_for(lambda: by_testid(driver, "games-menu").is_displayed(), what="home: the games menu")
    for g in ["harmony", "vibe", "touch"]:
        by_testid(driver, f"game-{g}")
    errors = console_errors(driver)
    if errors:
        fail(f"home: console errors: {errors}")

with open(result_path, "w") as f:
    json.dump(results, f)
print("ok")
