// The seed's analog gauge (DialView): a brass bezel, a cream face with ticks, and a needle that sweeps
// from 210° to 510° (angles clockwise from 12 o'clock: 7 o'clock at 0 through 12 to 5 o'clock at 1).
// The needle is the dial's setting (knob.js turns it); a brass mark on the rim can show a live value beside
// it (the velocity of the newest sounding note).

import { fitCanvas } from "/js/canvas.js";

export const SWEEP_START = 210;
export const SWEEP_END = 510;

/** The needle's angle in degrees (clockwise from 12 o'clock) for a value 0…1 (clamped). */
export function needleAngle(value) {
  const v = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  return SWEEP_START + (SWEEP_END - SWEEP_START) * v;
}

export class Dial {
  constructor(canvas, label) {
    this.canvas = canvas;
    this.label = label;
    this.value = 0;      // target 0…1
    this.shown = 0;      // the needle, eased toward the target like a damped movement
    this.live = null;    // the rim's live mark 0…1, or null for none
  }

  set(value) { this.value = Math.min(1, Math.max(0, value || 0)); }

  /** The live mark on the rim, 0…1 (null or 0: hidden). */
  setLive(value) {
    const v = value > 0 ? Math.min(1, value) : null;
    if (v !== this.live) { this.live = v; this.drawn = false; }
  }

  draw(dt) {
    const settled = Math.abs(this.value - this.shown) < 1e-4;
    if (settled && this.drawn && this.canvas.clientWidth === this.drawnWidth) return;   // nothing moved
    this.shown = settled ? this.value : this.shown + (this.value - this.shown) * Math.min(1, dt * 12);
    this.drawn = true;
    this.drawnWidth = this.canvas.clientWidth;
    const c = this.canvas, { width: size } = fitCanvas(c, { square: true });
    const g = c.getContext("2d"), r = size / 2, cx = r, cy = r;
    const point = (deg, radius) => {
      const a = (deg * Math.PI) / 180;
      return [cx + radius * Math.sin(a), cy - radius * Math.cos(a)];
    };
    g.clearRect(0, 0, size, size);
    // Bezel and face.
    const bezel = g.createLinearGradient(0, 0, size, size);
    bezel.addColorStop(0, "#E2C48A"); bezel.addColorStop(0.5, "#B8945C"); bezel.addColorStop(1, "#6b5230");
    g.fillStyle = bezel;
    g.beginPath(); g.arc(cx, cy, r * 0.98, 0, Math.PI * 2); g.fill();
    const face = g.createRadialGradient(cx, cy * 0.8, r * 0.1, cx, cy, r * 0.88);
    face.addColorStop(0, "#FBF0D4"); face.addColorStop(1, "#D9C393");
    g.fillStyle = face;
    g.beginPath(); g.arc(cx, cy, r * 0.86, 0, Math.PI * 2); g.fill();
    // The scale's arc and ticks (11 marks, 0…10).
    g.strokeStyle = "#2E1F14";
    g.lineWidth = Math.max(1, r * 0.025);
    g.beginPath();
    g.arc(cx, cy, r * 0.72, ((SWEEP_START - 90) * Math.PI) / 180, ((SWEEP_END - 90) * Math.PI) / 180);
    g.stroke();
    for (let k = 0; k <= 10; k++) {
      const deg = SWEEP_START + (k * (SWEEP_END - SWEEP_START)) / 10;
      const [x1, y1] = point(deg, r * (k % 5 === 0 ? 0.58 : 0.64)), [x2, y2] = point(deg, r * 0.74);
      g.lineWidth = Math.max(1, r * (k % 5 === 0 ? 0.04 : 0.02));
      g.beginPath(); g.moveTo(x1, y1); g.lineTo(x2, y2); g.stroke();
    }
    // The red zone at the top of the scale.
    g.strokeStyle = "rgba(160, 40, 20, 0.8)";
    g.lineWidth = r * 0.06;
    g.beginPath();
    g.arc(cx, cy, r * 0.79, ((SWEEP_START + 0.85 * 300 - 90) * Math.PI) / 180, ((SWEEP_END - 90) * Math.PI) / 180);
    g.stroke();
    // The live mark: a brass wedge just inside the bezel.
    if (this.live !== null) {
      const a = needleAngle(this.live);
      const [tx, ty] = point(a, r * 0.84), [lx, ly] = point(a - 5, r * 0.97), [rx, ry] = point(a + 5, r * 0.97);
      g.fillStyle = "#6b4a12";
      g.beginPath(); g.moveTo(tx, ty); g.lineTo(lx, ly); g.lineTo(rx, ry); g.closePath(); g.fill();
    }
    // Label and value.
    g.fillStyle = "#2E1F14";
    g.textAlign = "center";
    g.font = `${Math.round(r * 0.2)}px system-ui, sans-serif`;
    g.fillText(this.label.toUpperCase(), cx, cy + r * 0.42);
    g.font = `${Math.round(r * 0.17)}px ui-monospace, monospace`;
    g.fillText(String(Math.round(this.shown * 127)), cx, cy + r * 0.64);
    // Needle with its shadow, then the brass hub.
    const [nx, ny] = point(needleAngle(this.shown), r * 0.7);
    g.strokeStyle = "rgba(0,0,0,0.25)";
    g.lineWidth = Math.max(1.5, r * 0.045);
    g.beginPath(); g.moveTo(cx + 2, cy + 2); g.lineTo(nx + 2, ny + 2); g.stroke();
    g.strokeStyle = "#8B1A10";
    g.lineWidth = Math.max(1.5, r * 0.035);
    g.beginPath(); g.moveTo(cx, cy); g.lineTo(nx, ny); g.stroke();
    g.fillStyle = "#B8945C";
    g.beginPath(); g.arc(cx, cy, r * 0.08, 0, Math.PI * 2); g.fill();
    this.canvas.dataset.value = this.value.toFixed(3);
    this.canvas.dataset.live = (this.live ?? 0).toFixed(3);
    this.canvas.dataset.angle = needleAngle(this.value).toFixed(1);
  }
}
