// Browser haptics for the games: the session clock mapped to the page's clock (performance.now(); the protocol's
// `clock` message), each haptic burst from the server played with navigator.vibrate at its time, and a
// visible indicator of what would be felt (every device; iOS has no Vibration API). Both take the page's clock
// (js/clock.js), so that a test can run them on a clock it moves by hand.
//
//   const clock = new SessionClock(studio); clock.start();
//   const player = new HapticPlayer({ clock, indicator }); player.unlock(); player.play(burst);

import { pageClock } from "/js/clock.js";

/** Samples kept for the offset estimate (the one with the shortest round trip wins). */
export const CLOCK_SAMPLES = 8;
/** Bursts (and what became of them) kept in `HapticPlayer.log`: more than a game sends while a test plays it. */
export const LOG_LIMIT = 512;
/** A burst later than this (ms) past its start is not played at all. */
export const LATE_LIMIT_MS = 1000;
/** Up to this lateness (ms) a pattern plays whole (haptics.md §3: touch-to-tactile latency is fine within
 *  5–50 ms); later, its first part is cut so the rest stays on the audio clock. */
export const TRIM_AFTER_MS = 50;

/** Maps the server's session clock (s) to the page's clock (ms): NTP-style, by the shortest round trip. */
export class SessionClock {
  /** `page`: the page's clock (js/clock.js's `pageClock`, or a test's). */
  constructor(studio, page = pageClock) {
    this.studio = studio;
    this.page = page;
    this.samples = [];
    this.offset = null;   // ms: page = audio·1000 − offset
    studio.on("clock", (m) => this.receive(m));
  }

  /** Starts over: the instrument answering changed (each game has its own clock). */
  restart() {
    this.samples = [];
    this.offset = null;
    this.start();
  }

  start() {
    const page = this.page;
    page.clearInterval(this.timer);
    let quick = 6;
    const ask = () => { if (this.studio.welcomed) this.studio.send({ type: "clock", t: page.now() }); };
    ask();
    // Six quick samples, then one every 2 s (clocks drift; the audio clock pauses when audio stops).
    this.timer = page.setInterval(() => {
      ask();
      if (--quick === 0) { page.clearInterval(this.timer); this.timer = page.setInterval(ask, 2000); }
    }, 120);
  }

  receive(m) {
    if (typeof m.t !== "number" || typeof m.audio !== "number") return;
    const now = this.page.now();
    const rtt = now - m.t;
    if (rtt < 0 || rtt > 5000) return;
    this.samples.push({ rtt, offset: m.audio * 1000 - (m.t + rtt / 2), at: now });
    if (this.samples.length > CLOCK_SAMPLES) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.offset = best.offset;
  }

  get ready() { return this.offset !== null; }
  /** The page's clock (ms) at session time `seconds`. */
  perfAt(seconds) { return seconds * 1000 - this.offset; }
  /** Session time now (s). */
  now() { return (this.page.now() + this.offset) / 1000; }
}

/** `pattern` (ms on/off, starting on) with its first `ms` cut away; [] when nothing is left. */
export function trimPattern(pattern, ms) {
  if (ms <= 0) return pattern.slice();
  const out = [];
  let rest = ms, on = true;
  for (const entry of pattern) {
    if (rest >= entry) { rest -= entry; on = !on; continue; }
    const left = entry - rest;
    rest = 0;
    if (out.length === 0 && !on) out.push(0);   // the pattern must start with "on"
    out.push(left);
    on = !on;
  }
  return out.length > 0 && out.some((v, i) => i % 2 === 0 && v > 0) ? out : [];
}

export class HapticPlayer {
  /**
   * @param clock a SessionClock (`ready`, `perfAt(seconds)`)
   * @param indicator the element that lights while a pattern is on (its canvas draws the pattern)
   * @param page the page's clock the bursts are timed on (js/clock.js's `pageClock`, or a test's)
   * @param vibrate plays a pattern (navigator.vibrate where the browser has it)
   */
  constructor({ clock, indicator, page = pageClock, vibrate = typeof navigator.vibrate === "function" ? (p) => navigator.vibrate(p) : null }) {
    this.clock = clock;
    this.indicator = indicator;
    this.page = page;
    this.canvas = indicator.querySelector("canvas");
    this.vibrate = vibrate;
    this.vibrates = typeof vibrate === "function";
    this.scheduled = [];   // {serial, time, timer}
    this.lastSerial = 0;
    this.lights = [];
    /** The last bursts and what became of them (for the console and tests). */
    this.log = [];
  }

  /** Call inside the tap-to-start gesture: the Vibration API needs one before it plays. */
  unlock() {
    if (this.vibrates) { try { this.vibrate(0); } catch { this.vibrates = false; } }
  }

  /** A burst from the server ({serial, time, pattern, events, peak}): played at its session time. Each one's fate
   *  goes into `log`: `at` (the page's clock when due), `received`, `fired`, `late` (ms), `cut` (ms cut away) and
   *  `played` (the pattern vibrated and shown, null when none). */
  play(burst) {
    if (!burst || typeof burst.serial !== "number" || burst.serial <= this.lastSerial || !Array.isArray(burst.pattern)) return;
    this.lastSerial = burst.serial;
    const page = this.page;
    // This burst carries every earlier event still to be felt from its start: any pattern scheduled
    // at or after that start is replaced (an earlier one plays, and this one's call cancels its rest).
    for (const s of this.scheduled.filter((s) => s.time >= burst.time)) page.clearTimeout(s.timer);
    this.scheduled = this.scheduled.filter((s) => s.time < burst.time);
    const now = page.now();
    const at = this.clock.ready ? this.clock.perfAt(burst.time) : now;
    const entry = { serial: burst.serial, time: burst.time, pattern: burst.pattern.slice(), at, received: now, fired: null, late: null,
      cut: 0, played: null };
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.shift();
    const fire = () => {
      this.scheduled = this.scheduled.filter((s) => s.serial !== burst.serial);
      const fired = page.now();
      const late = fired - at;
      entry.fired = fired;
      entry.late = late;
      if (late > LATE_LIMIT_MS) return;
      entry.cut = late > TRIM_AFTER_MS ? Math.round(late) : 0;
      const pattern = entry.cut > 0 ? trimPattern(burst.pattern, entry.cut) : burst.pattern.slice();
      if (pattern.length === 0) return;
      entry.played = pattern;
      if (this.vibrates) { try { this.vibrate(pattern); } catch { /* no gesture yet: the indicator still shows it */ } }
      this.show(pattern, burst);
    };
    const delay = at - now;
    if (delay <= 1) { fire(); return; }
    this.scheduled.push({ serial: burst.serial, time: burst.time, timer: page.setTimeout(fire, delay) });
  }

  /** The indicator: lit during each "on" entry, scaled by the burst's peak; the pattern drawn as bars. */
  show(pattern, burst) {
    const page = this.page;
    for (const t of this.lights) page.clearTimeout(t);
    this.lights = [];
    const el = this.indicator;
    el.style.setProperty("--peak", String(burst.peak ?? 1));
    let t = 0;
    pattern.forEach((ms, i) => {
      const on = i % 2 === 0;
      this.lights.push(page.setTimeout(() => el.classList.toggle("on", on && ms > 0), t));
      t += ms;
    });
    this.lights.push(page.setTimeout(() => el.classList.remove("on"), t));
    const kinds = [...new Set((burst.events ?? []).map((e) => e.kind))].join(" + ") || "pulse";
    el.setAttribute("aria-label", `What you would feel: ${kinds}, ${t} ms`);
    el.dataset.pattern = pattern.join(",");
    el.dataset.serial = String(burst.serial);
    const c = this.canvas;
    if (!c) return;
    const g = c.getContext("2d");
    g.clearRect(0, 0, c.width, c.height);
    g.fillStyle = "#4DD9F2";
    const total = Math.max(1, t);
    let x = 0;
    pattern.forEach((ms, i) => {
      const w = (ms / total) * c.width;
      if (i % 2 === 0 && ms > 0) g.fillRect(x, 2, Math.max(1, w), c.height - 4);
      x += w;
    });
  }
}
