// The page's own time for its schedulers (the games' haptics and their clock sync, browser audio's reports and
// arrival gaps, a page camera's frame pacing and pings): `now()` in milliseconds on performance.now()'s clock, and
// timers on that clock. Each scheduler takes a clock and defaults to this one, so that a test can give it a clock
// whose time it moves by hand and check what is scheduled when, in the page's own time.
//
//   import { pageClock } from "/js/clock.js";
//   const timer = pageClock.setTimeout(fire, at - pageClock.now());   pageClock.clearTimeout(timer);

/** performance.now() and the window's timers (what every page runs on). */
export const pageClock = Object.freeze({
  /** Milliseconds since the page's time origin. */
  now: () => performance.now(),
  /** Calls `callback` once, `ms` milliseconds from now (0 or less: as soon as the page is free); returns its id. */
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id),
  /** Calls `callback` every `ms` milliseconds until cleared; returns its id. */
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (id) => clearInterval(id),
});
