// A page clock (the shape of js/clock.js's `pageClock`) whose time moves only when the test moves it: the browser
// tests hand it to the page's schedulers and check what they schedule, and when, in that time. core_browser.py's
// FAKE_CLOCK puts this class in front of a test's script.
//
// Timers run as a browser runs them, in order of due time, then of creation; an interval (at least 1 ms, as browsers
// clamp them) is due again its period after the time it was due; a timer set while others run is run in the same advance when it falls due within it.
class FakeClock {
  constructor(start = 0) {
    this.time = start;
    this.timers = new Map();   // id → { due, period, callback }
    this.nextID = 1;
  }

  now() { return this.time; }

  setTimeout(callback, ms = 0) { return this.add(callback, ms, null); }
  setInterval(callback, ms = 0) { return this.add(callback, ms, Math.max(1, Number(ms) || 0)); }
  clearTimeout(id) { this.timers.delete(id); }
  clearInterval(id) { this.timers.delete(id); }

  add(callback, ms, period) {
    const id = this.nextID++;
    this.timers.set(id, { due: this.time + Math.max(0, Number(ms) || 0), period, callback });
    return id;
  }

  /** The timer due first (the earliest made among equals), or null. */
  next() {
    let first = null;
    for (const [id, timer] of this.timers) {
      if (first === null || timer.due < first.timer.due || (timer.due === first.timer.due && id < first.id)) first = { id, timer };
    }
    return first;
  }

  /** Moves time to `target` (ms), running every timer due until then, each at its own due time. */
  advanceTo(target) {
    for (;;) {
      const first = this.next();
      if (first === null || first.timer.due > target) break;
      this.time = Math.max(this.time, first.timer.due);
      if (first.timer.period === null) this.timers.delete(first.id);
      else first.timer.due += first.timer.period;
      first.timer.callback();
    }
    this.time = Math.max(this.time, target);
  }

  advance(ms) { this.advanceTo(this.time + ms); }

  /** Due times of the timers still waiting, in order. */
  pending() { return [...this.timers.values()].map((t) => t.due).sort((a, b) => a - b); }
}
