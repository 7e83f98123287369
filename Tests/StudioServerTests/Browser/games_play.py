"""The three games end to end in headless Chromium against an in-process studio (GamesBrowserTests).

Phone-sized window. For each game: the page loads with no console errors and every control has an
aria-label and a data-testid; `navigator.vibrate` is replaced before any page script runs (DevTools
Page.addScriptToEvaluateOnNewDocument) by a recorder of its patterns; the tap-to-start overlay is clicked;
then the game is played by pointer events through DevTools' input:
- Harmony With Me (mouse): a tap beside a circle just shown (missed: a red mark, no phrase) and one on the
  next (hit: a green mark, one phrase);
- Feel Your Vibe (touch points): six half cycles of up-and-down swipes at x = 0.7;
- Touch for Music (touch points): a hold at y = 0.25, then nothing until the home button shows, which
  leads back to the games menu on Home.
After each game the script takes what the page did with the game's bursts (its log, its vibrate calls, its clock
sync beside this script's own over a second socket), then runs the page's haptics code on a fake clock with one
of the game's own patterns (SCHEDULE_CHECK): what is scheduled when is judged there, in the page's own time, never
on the wall clock. It writes all of it as JSON for the Swift test, which compares it with the instruments' bursts
and models.

Usage: games_play.py BASE_URL SCREENSHOT_DIR RESULT.json"""
import json
import sys
import time

from core_browser import FAKE_CLOCK, studio_browser, console_errors, by_testid, wait_for, fail

base, shots, result_path = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]

STUB = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, writable: true,
  value: function (p) { window.__vibrations.push({ t: performance.now(), p: Array.isArray(p) ? p.slice() : [p] }); return true; } });
"""

# This script's own clock sync: a second socket, 12 `clock` round trips, the shortest wins. Each estimate is the true
# offset give or take half its round trip, so the page's and this one agree within half the sum of theirs, on any load.
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


# The page's haptics on a fake clock (core_browser.py's FakeClock), after a game's results are taken: a HapticPlayer and
# a SessionClock of their own (haptics.js, the page's code), apart from the game's, so that nothing the game sends meanwhile
# enters the check. The player maps session time s to s·1000 ms of the fake clock (times are whole eighths of a second,
# so that every time below is exact); `vibrate` records each call with the fake time it was made at. Each case plays
# bursts at chosen fake times and moves the clock; the Swift test compares the calls with the rules (GamesBrowserTests
# checkScheduler). PATTERN is the game's own (one the instrument sent it).
SCHEDULE_CHECK = FAKE_CLOCK + """
const [PATTERN, done] = arguments;
(async () => {
  const { HapticPlayer, SessionClock } = await import("/games/haptics.js");
  const fake = new FakeClock(20000);
  const calls = [];
  const indicator = document.createElement("div");
  indicator.append(document.createElement("canvas"));
  const session = { ready: true, perfAt: (s) => s * 1000 };
  const player = new HapticPlayer({ clock: session, indicator, page: fake,
    vibrate: (p) => { calls.push({ t: fake.now(), p: Array.isArray(p) ? p.slice() : [p] }); return true; } });
  let serial = 0;
  const burst = (seconds, pattern = PATTERN) => ({ serial: ++serial, time: seconds, pattern, events: [], peak: 1 });
  const entry = (b) => player.log.find((e) => e.serial === b.serial) ?? null;
  const cases = {};
  // Each case starts on a whole second after the last one's timers and lights are over: `base`. It plays `bursts`
  // ([ms after base, ms after base it is due at, pattern]), then moves the clock to base + `until`; what it records is
  // relative to base (due times in whole eighths of a second, so that session seconds and ms are exact).
  const next = () => Math.ceil((Math.max(...fake.pending(), fake.now()) + 1) / 1000) * 1000 + 1000;
  const run = (name, bursts, until) => {
    const base = next(), n = calls.length;
    const played = bursts.map(([at, due, pattern = PATTERN]) => {
      fake.advanceTo(base + at);
      const b = burst((base + due) / 1000, pattern);
      player.play(b);
      return b;
    });
    fake.advanceTo(base + until);
    cases[name] = { calls: calls.slice(n).map((c) => ({ t: c.t - base, p: c.p })), entries: played.map(entry) };
  };

  // Due 250 ms ahead: nothing 1 ms before its time, the whole pattern at it; the indicator lit through the pattern.
  {
    const base = next(), b = burst((base + 250) / 1000), n = calls.length;
    fake.advanceTo(base);
    player.play(b);
    fake.advanceTo(base + 249);
    const early = calls.slice(n);
    const lights = [];
    let on = indicator.classList.contains("on");
    const total = PATTERN.reduce((a, v) => a + v, 0);
    for (let t = 250; t <= 250 + total + 1; t++) {
      fake.advanceTo(base + t);
      const now = indicator.classList.contains("on");
      if (now !== on) { lights.push({ t, on: now }); on = now; }
    }
    cases.ahead = { early, calls: calls.slice(n).map((c) => ({ t: c.t - base, p: c.p })), entries: [entry(b)], lights,
                    shown: indicator.dataset.pattern ?? null };
  }
  // Late by 50 ms: played at once, whole; by 51 ms: at once, its first 51 ms cut.
  run("late50", [[50, 0]], 100);
  run("late51", [[51, 0]], 100);
  // 200 ms past its time: at once with what passed cut.
  run("past", [[200, 0, [150, 50, 100]]], 300);
  // Later than a second: not played; exactly a second: played, cut.
  run("tooLate", [[1001, 0]], 1100);
  run("aSecond", [[1000, 0]], 1100);
  // 1 ms ahead plays at once; 2 ms ahead at its time.
  run("soon1", [[124, 125]], 200);
  run("soon2", [[123, 125]], 200);
  // A later burst starting at or before a waiting one's time replaces it (it carries its events); one starting
  // after it leaves it to play.
  run("replaced", [[0, 500], [100, 250, [40, 30, 60]]], 900);
  run("sameTime", [[0, 500], [100, 500, [40, 30, 60]]], 900);
  run("kept", [[0, 500], [100, 750, [40, 30, 60]]], 900);
  // A serial already seen is ignored.
  {
    const base = next(), n = calls.length, logged = player.log.length;
    fake.advanceTo(base);
    player.play({ serial: serial, time: (base + 250) / 1000, pattern: PATTERN, events: [], peak: 1 });
    fake.advanceTo(base + 900);
    cases.stale = { calls: calls.slice(n), logged: player.log.length - logged };
  }
  // Before the clock sync answers: at once.
  session.ready = false;
  run("unsynced", [[0, 5000]], 100);
  session.ready = true;

  // The page's SessionClock against a scripted server: each ask is answered after its own up and down delays, with the
  // audio clock 123 456 ms ahead of the page's (audio·1000 = page ms + 123456 at the server's moment).
  const asks = [], handlers = {};
  const studio = { welcomed: true, on: (type, f) => { handlers[type] = f; }, send: (m) => asks.push({ at: fake.now(), t: m.t, type: m.type }) };
  const ahead = 123456;
  const up = [30, 5, 12, 40, 3, 25, 8, 60, 9, 14, 2, 33, 7, 21, 4, 11, 6, 50, 1, 13, 17];
  const down = [30, 20, 4, 2, 6, 1, 9, 0, 3, 30, 5, 7, 44, 2, 9, 1, 12, 3, 8, 5, 10];
  const clock = new SessionClock(studio, fake);
  const answered = [];
  const answer = () => {
    for (const a of asks.slice(answered.length)) {
      const i = answered.length, u = up[i % up.length], d = down[i % down.length];
      answered.push({ t: a.t, up: u, down: d });
      fake.setTimeout(() => handlers.clock({ type: "clock", t: a.t, audio: (a.t + u + ahead) / 1000 }), u + d);
    }
  };
  const original = studio.send;
  studio.send = (m) => { original(m); answer(); };
  const start = next();
  fake.advanceTo(start);
  clock.start();
  fake.advanceTo(start + 1800);
  const quick = { offset: clock.offset, samples: clock.samples.length, ready: clock.ready };
  fake.advanceTo(start + 30000);
  const settled = { offset: clock.offset, samples: clock.samples.length, perfAt: clock.perfAt(300), now: clock.now(), at: fake.now() };
  // Answers it must not take: a round trip over 5 s, one from the future, one without an audio clock.
  handlers.clock({ type: "clock", t: fake.now() - 5001, audio: 1 });
  handlers.clock({ type: "clock", t: fake.now() + 10, audio: 1 });
  handlers.clock({ type: "clock", t: fake.now() - 1, audio: null });
  const refused = { offset: clock.offset, samples: clock.samples.length };
  // Another game answers now: the samples start over, and so do the quick asks.
  const before = asks.length;
  clock.restart();
  const restarted = { ready: clock.ready, samples: clock.samples.length };
  fake.advanceTo(fake.now() + 1000);
  restarted.asks = asks.slice(before).map((a) => a.at);
  restarted.ready_after = clock.ready;
  // A page not welcomed yet asks nothing.
  const quiet = { welcomed: false, on: () => {}, sent: 0, send() { this.sent++; } };
  const idle = new SessionClock(quiet, fake);
  idle.start();
  fake.advanceTo(fake.now() + 5000);
  clock.page.clearInterval(clock.timer);
  idle.page.clearInterval(idle.timer);
  done({ cases, sessionClock: { start, asks: asks.slice(0, before).map((a) => ({ at: a.at, t: a.t })), answered, ahead, quick, settled, refused,
         restarted, unwelcomedAsks: quiet.sent } });
})();
"""


def schedule_check(driver, game, pattern):
    """The page's haptics on a fake clock with `pattern`, the game's own (see SCHEDULE_CHECK)."""
    checked = driver.execute_async_script(SCHEDULE_CHECK, pattern)
    if not checked:
        fail(f"{game}: the scheduler check gave nothing")
    return checked


def touch(driver, kind, x, y):
    """One finger (id 0) as a DevTools touch point at page pixels (x, y)."""
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 0, "radiusX": 8, "radiusY": 8, "force": 1}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def click(driver, x, y):
    """A mouse click at page pixels (x, y), through DevTools' input (pointer events as a real mouse makes them)."""
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


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


def stage_box(driver):
    return driver.execute_script("const r = document.getElementById('stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")


def page_log(driver):
    """The page's bursts, its vibrate calls and its clock sync, read in one script (with the last serial it has, so that
    the test judges exactly the bursts the page had by then), and this script's own clock sync taken right after."""
    page = driver.execute_script("const { clock, player } = window.games; return {offset: clock.offset, samples: clock.samples, "
                                 "log: player.log, lastSerial: player.lastSerial, now: performance.now(), "
                                 "vibrations: window.__vibrations.filter((v) => !(v.p.length === 1 && v.p[0] === 0))}")
    sync = driver.execute_async_script(CLOCK_SYNC)
    if not sync:
        fail("no clock answer on the test's own socket")
    return page, sync


def vibrations(driver):
    return [v for v in driver.execute_script("return window.__vibrations") if v["p"] != [0]]


def results_of(driver, game, **more):
    """What the Swift test compares with the instrument: the page's bursts, its vibrate calls, both clock syncs, and
    the page's haptics on a fake clock with one of the game's own patterns."""
    page, sync = page_log(driver)
    pattern = next((e["pattern"] for e in page["log"] if len(e["pattern"]) >= 3), None) or \
        next((e["pattern"] for e in page["log"] if e["pattern"]), [40, 30, 60])
    return {"page": page, "sync": sync, "scheduled": schedule_check(driver, game, pattern), "pattern": pattern, **more}


def after_input(driver, expression):
    """`expression` (a script's body) read once the page has shown a frame made after the server handled every message
    the page had sent: a `clock` question goes after them on the same socket, and a frame after its answer shows them."""
    driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const studio = window.studio, t = performance.now();
      let answered = false, finished = false;
      studio.on("clock", (m) => { if (m.t === t) answered = true; });
      studio.on("frame", () => { if (answered && !finished) { finished = true; requestAnimationFrame(() => done(true)); } });
      studio.send({ type: "clock", t });""")
    return driver.execute_script(expression)


def fresh_circle(driver):
    """Waits for the next circle to appear and returns it ([x, y, r] of the stage, its page pixels): a circle stays
    one bar (2.4 s), so a tap made at once lands while it is shown, however busy the machine."""
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const c = document.getElementById('circle');
      const key = () => c.dataset.state === 'shown' && !c.hidden ? `${c.dataset.x},${c.dataset.y}` : null;
      const was = key();
      const look = () => {
        const now = key();
        if (now === null || now === was) { requestAnimationFrame(look); return; }
        const s = document.getElementById('stage').getBoundingClientRect();
        done([+c.dataset.x, +c.dataset.y, +c.dataset.r, s.left + +c.dataset.x * s.width, s.top + +c.dataset.y * s.height]);
      };
      look();""")


results = {}
with studio_browser(width=412, height=860) as driver:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STUB})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    # Harmony With Me, with the mouse: a tap beside a fresh circle (a miss), then one on the next circle (a hit).
    open_game(driver, "harmony")
    wait_for(lambda: driver.execute_script(
        "const c = document.getElementById('circle'); return c.dataset.state === 'shown' && !c.hidden"),
        what="harmony: the circle appears with the music")
    left, top, w, h = stage_box(driver)
    cx, cy, r, _, py = fresh_circle(driver)
    miss_x = cx - 2 * r if cx > 0.5 else cx + 2 * r
    click(driver, left + miss_x * w, py)
    wait_for(lambda: driver.execute_script("return document.querySelector('[data-testid=mark-miss]') !== null"), what="harmony: a miss mark")
    if driver.execute_script("return document.getElementById('readout').dataset.phrases") != "0":
        fail("harmony: a tap beside the circle played a phrase")
    circle = fresh_circle(driver)
    click(driver, circle[3], circle[4])
    wait_for(lambda: driver.execute_script("return document.querySelector('[data-testid=mark-hit]') !== null"), what="harmony: a hit mark")
    wait_for(lambda: driver.execute_script("return document.getElementById('readout').dataset.phrases") == "1", what="harmony: one phrase")
    wait_for(lambda: driver.execute_script("return document.getElementById('circle').dataset.state") == "hit", what="harmony: the circle's hit state")
    wait_for(lambda: vibrations(driver), what="harmony: navigator.vibrate called")
    driver.save_screenshot(f"{shots}/games-harmony.png")
    results["harmony"] = results_of(driver, "harmony", circle=circle[:3],
                                    phrases=int(driver.execute_script("return document.getElementById('readout').dataset.phrases")))
    errors = console_errors(driver)
    if errors:
        fail(f"harmony: console errors: {errors}")

    # Feel Your Vibe, with a finger: six half cycles of up-and-down swipes (their rate is the server's: it stamps
    # the moves as they arrive, and the test computes the model from those stamps).
    open_game(driver, "vibe")
    left, top, w, h = stage_box(driver)
    x = left + 0.7 * w
    touch(driver, "touchStart", x, top + 0.3 * h)
    for k in range(6):
        y0, y1 = (0.3, 0.7) if k % 2 == 0 else (0.7, 0.3)
        for step in range(1, 7):
            time.sleep(0.05)
            touch(driver, "touchMove", x, top + (y0 + (y1 - y0) * step / 6) * h)
    wait_for(lambda: driver.execute_script("return Number(document.getElementById('readout').dataset.depth) > 0"), what="vibe: the depth shown")
    driver.save_screenshot(f"{shots}/games-vibe.png")
    touch(driver, "touchEnd", 0, 0)
    readout = after_input(driver, "const d = document.getElementById('readout').dataset; return [+d.frequency, +d.depth]")
    results["vibe"] = results_of(driver, "vibe", frequency=readout[0], depth=readout[1])
    errors = console_errors(driver)
    if errors:
        fail(f"vibe: console errors: {errors}")

    # Touch for Music, with a finger; then the home button after inactivity.
    open_game(driver, "touch")
    left, top, w, h = stage_box(driver)
    touch(driver, "touchStart", left + 0.4 * w, top + 0.5 * h)
    for s in range(1, 6):
        touch(driver, "touchMove", left + 0.4 * w, top + (0.5 - 0.05 * s) * h)
    wait_for(lambda: abs(float(driver.execute_script("return document.getElementById('readout').dataset.volume") or 0) - 0.75) < 0.01,
             what="touch: the hold's volume (1 − 0.25)")
    driver.save_screenshot(f"{shots}/games-touch.png")
    if by_testid(driver, "game-home").is_displayed():
        fail("touch: the home button shows while the finger plays")
    touch(driver, "touchEnd", 0, 0)
    volume = float(after_input(driver, "return document.getElementById('readout').dataset.volume"))
    home = wait_for(lambda: by_testid(driver, "game-home") if by_testid(driver, "game-home").is_displayed() else None,
                    what="touch: the home button after inactivity")
    results["touch"] = results_of(driver, "touch", volume=volume)
    with open(result_path, "w") as f:
        json.dump(results, f)  # so far (a failure below still leaves what was seen)
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
