// A dial that turns, as the seed's InteractiveDialView: the canvas becomes a slider (role=slider, focusable,
// aria-valuenow) that a pointer drags, two fingers twist and the keyboard steps. The value goes to the server
// as a `set` (at most one per animation frame while it moves); what the server answers is shown when no
// pointer is turning the dial, so another page's move, a refusal or a replay after reconnecting lands.
//
//   const knob = new Knob(canvas, { min: 0, max: 127, onChange: (v) => studio.set("hands.mod", v),
//                                   onShow: (v) => dial.set(v / 127) });
//   knob.show(serverValue);   // from the state
//
// Dragging: up (or right) turns it up, DRAG_PX CSS px for the whole range; with Shift, Alt, Ctrl or Meta held,
// or while the pointer moves slower than SLOW_PX_PER_MS, FINE_FACTOR as far (fine). Two fingers on the dial turn
// it as they rotate: the needle's 300° sweep is the whole range, clockwise up. Keys: arrows ±1, Page Up/Down
// ±10, Home/End the ends.

/** CSS px of vertical drag for the whole range. */
export const DRAG_PX = 160;
/** Fine adjustment's share of the normal rate (modifier held, or a slow drag). */
export const FINE_FACTOR = 0.2;
/** Below this pointer speed (CSS px per ms) a drag is fine. */
export const SLOW_PX_PER_MS = 0.05;
/** Degrees of two-finger rotation for the whole range (the needle's sweep). */
export const TWIST_DEGREES = 300;

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
/** The difference of two angles in degrees, folded into −180…180. */
const turn = (a, b) => ((a - b + 540) % 360) - 180;

export class Knob {
  constructor(canvas, { min, max, step = 1, onChange, onShow, describe }) {
    this.canvas = canvas;
    this.min = min;
    this.max = max;
    this.step = step;
    this.onChange = onChange;
    this.onShow = onShow;
    this.describe = describe ?? ((v) => String(v));
    this.exact = min;        // the unrounded value a drag accumulates
    this.value = min;
    this.server = min;       // the value the server last confirmed
    this.pointers = new Map();   // pointerId → { x, y, t }
    this.pending = null;
    canvas.setAttribute("role", "slider");
    canvas.tabIndex = 0;
    canvas.setAttribute("aria-orientation", "vertical");
    this.range(min, max);
    for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel", "lostpointercapture", "keydown"]) {
      canvas.addEventListener(type, this);
    }
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  /** The range (from the server's state). */
  range(min, max) {
    this.min = min;
    this.max = max;
    this.canvas.setAttribute("aria-valuemin", String(min));
    this.canvas.setAttribute("aria-valuemax", String(max));
  }

  /** The server's value; shown unless a pointer is turning the dial. */
  show(value) {
    if (!Number.isFinite(value)) return;
    this.server = value;
    if (this.pointers.size === 0) this.display(value);
  }

  display(value) {
    this.value = clamp(value, this.min, this.max);
    this.exact = this.value;
    this.canvas.setAttribute("aria-valuenow", String(this.value));
    this.canvas.setAttribute("aria-valuetext", this.describe(this.value));
    this.onShow?.(this.value);
  }

  /** The user turned it to `exact` (unrounded): shown at once, sent once per animation frame. */
  turnTo(exact) {
    this.exact = clamp(exact, this.min, this.max);
    const value = clamp(Math.round(this.exact / this.step) * this.step, this.min, this.max);
    this.value = value;
    this.canvas.setAttribute("aria-valuenow", String(value));
    this.canvas.setAttribute("aria-valuetext", this.describe(value));
    this.onShow?.(value);
    if (value === this.server && this.pending === null) return;
    if (this.pending === null) {
      requestAnimationFrame(() => {
        const v = this.pending;
        this.pending = null;
        if (v !== this.server) { this.server = v; this.onChange(v); }
      });
    }
    this.pending = value;
  }

  handleEvent(e) {
    switch (e.type) {
      case "pointerdown": return this.down(e);
      case "pointermove": return this.move(e);
      case "pointerup": case "pointercancel": case "lostpointercapture": return this.up(e);
      case "keydown": return this.key(e);
    }
  }

  down(e) {
    if (this.pointers.size >= 2 || this.pointers.has(e.pointerId)) return;
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    try { this.canvas.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer cannot be captured */ }
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, t: e.timeStamp });
    this.twist = this.pointers.size === 2 ? this.angle() : null;
    this.canvas.dataset.turning = this.pointers.size === 2 ? "twist" : "drag";
  }

  move(e) {
    const p = this.pointers.get(e.pointerId);
    if (!p) return;
    e.preventDefault();
    const before = { ...p };
    p.x = e.clientX; p.y = e.clientY; p.t = e.timeStamp;
    const span = this.max - this.min;
    if (this.pointers.size === 2) {
      const now = this.angle();
      this.turnTo(this.exact + (turn(now, this.twist) / TWIST_DEGREES) * span);
      this.twist = now;
      return;
    }
    const dx = p.x - before.x, dy = before.y - p.y;   // up and right turn it up
    const dt = Math.max(1, p.t - before.t);
    const fine = e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || Math.hypot(dx, dy) / dt < SLOW_PX_PER_MS;
    this.turnTo(this.exact + ((dy + dx) / DRAG_PX) * span * (fine ? FINE_FACTOR : 1));
  }

  up(e) {
    if (!this.pointers.delete(e.pointerId)) return;
    this.twist = this.pointers.size === 2 ? this.angle() : null;
    if (this.pointers.size === 0) delete this.canvas.dataset.turning;
  }

  key(e) {
    const big = 10 * this.step;
    const by = { ArrowUp: this.step, ArrowRight: this.step, ArrowDown: -this.step, ArrowLeft: -this.step, PageUp: big, PageDown: -big }[e.key];
    let next;
    if (by !== undefined) next = this.value + by * (e.shiftKey ? 10 : 1);
    else if (e.key === "Home") next = this.min;
    else if (e.key === "End") next = this.max;
    else return;
    e.preventDefault();
    this.turnTo(next);
  }

  /** The angle (degrees, clockwise from 12 o'clock) of the line from the first finger to the second. */
  angle() {
    const [a, b] = [...this.pointers.values()];
    return (Math.atan2(b.x - a.x, -(b.y - a.y)) * 180) / Math.PI;
  }
}
