// How hard a pointer plays, 0…1, on devices that report no pressure (most phones).
//
// Order, per event:
//   1. pressure, when the device measures it: a pen's, or a touch's other than the 0 and 0.5 a browser
//      reports for "not measured" (a mouse always reports 0.5 while pressed, so it never counts);
//   2. the contact's size, when the device reports it (Android's Chrome gives the touch ellipse as
//      width/height in CSS px; "not reported" is 1×1): a light fingertip (6 px across) plays 0.15, a
//      flat firm finger (30 px) plays 1;
//   3. the speed: at touch-down, how fast the pointer was moving in the 80 ms before it (a mouse or a
//      hovering pen: a slow press plays 0.3, a strike at 1.5 px/ms or faster plays 1); while held, how fast
//      it moves (smoothed over about 100 ms), which is what CC 11 follows on a phone that reports neither
//      pressure nor size (iOS Safari): no event comes before a finger lands, so its note starts at 0.5.
//
//   const force = new TouchForce();
//   element.addEventListener("pointermove", (e) => { if (!held) force.hover(e); });
//   const f = force.down(e);      // { value, source }
//   const g = force.move(e, f);   // while held; `f` is the finger's state from `down`

/** Diameter (CSS px) of a contact that plays the least, and of one that plays full force. */
export const CONTACT_LIGHT_PX = 6, CONTACT_FIRM_PX = 30;
/** Force of the lightest contact; of a press without movement; with nothing measured. */
export const CONTACT_FLOOR = 0.15, SPEED_FLOOR = 0.3, UNMEASURED = 0.5;
/** Pointer speed (CSS px per ms) that plays full force. */
export const SPEED_FULL = 1.5;
/** How far back (ms) the approach before a press is measured. */
export const APPROACH_MS = 80;

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

/** The pressure the device measured, or null when it measures none. */
export function measuredPressure(e) {
  if (e.pointerType === "mouse") return null;
  if (!(e.pressure > 0)) return null;
  if (e.pointerType === "touch" && e.pressure === 0.5) return null;
  return clamp(e.pressure, 0, 1);
}

/** The force from the contact's size, or null when the device reports no size. */
export function contactForce(e) {
  const w = e.width ?? 1, h = e.height ?? 1;
  if (!(w > 1.5 || h > 1.5)) return null;
  const diameter = Math.sqrt(Math.max(1, w) * Math.max(1, h));
  return clamp(CONTACT_FLOOR + (1 - CONTACT_FLOOR) * (diameter - CONTACT_LIGHT_PX) / (CONTACT_FIRM_PX - CONTACT_LIGHT_PX), CONTACT_FLOOR, 1);
}

/** The force of moving at `speed` CSS px per ms. */
export const speedForce = (speed) => clamp(SPEED_FLOOR + (1 - SPEED_FLOOR) * speed / SPEED_FULL, SPEED_FLOOR, 1);

export class TouchForce {
  constructor() {
    /** Recent positions of a pointer not pressed: [{t, x, y}], the last APPROACH_MS. */
    this.trail = [];
  }

  /** A move of a pointer that is not pressed (a mouse or a hovering pen). */
  hover(e) {
    const t = e.timeStamp;
    this.trail.push({ t, x: e.clientX, y: e.clientY });
    while (this.trail.length > 2 && t - this.trail[0].t > APPROACH_MS) this.trail.shift();
  }

  /** The force at a press: `{ value, source, x, y, t, speed }` (the rest is the state `move` keeps). */
  down(e) {
    const state = { x: e.clientX, y: e.clientY, t: e.timeStamp, speed: 0 };
    const pressure = measuredPressure(e);
    if (pressure !== null) return { ...state, value: pressure, source: "pressure" };
    const contact = contactForce(e);
    if (contact !== null) return { ...state, value: contact, source: "contact" };
    const first = this.trail.find((p) => e.timeStamp - p.t <= APPROACH_MS);
    this.trail = [];
    if (first && e.timeStamp > first.t) {
      const speed = Math.hypot(e.clientX - first.x, e.clientY - first.y) / (e.timeStamp - first.t);
      return { ...state, speed, value: speedForce(speed), source: "speed" };
    }
    return { ...state, value: UNMEASURED, source: "none" };
  }

  /** The force while held; `finger` is what `down` returned (updated in place, and returned). */
  move(e, finger) {
    const pressure = measuredPressure(e);
    const contact = pressure === null ? contactForce(e) : null;
    if (pressure !== null || contact !== null) {
      finger.value = pressure ?? contact;
      finger.source = pressure !== null ? "pressure" : "contact";
    } else {
      const dt = e.timeStamp - finger.t;
      if (dt > 0) {
        const speed = Math.hypot(e.clientX - finger.x, e.clientY - finger.y) / dt;
        const a = 1 - Math.exp(-dt / 100);   // about 100 ms of smoothing, whatever the event rate
        finger.speed += a * (speed - finger.speed);
        finger.value = speedForce(finger.speed);
        finger.source = "speed";
      }
    }
    finger.x = e.clientX; finger.y = e.clientY; finger.t = e.timeStamp;
    return finger;
  }
}
