// HiSynth's drawings: the ADSR curve, the filter panel (spectrum bars + magnitude response on a log
// axis), the LFO previews, the oscilloscope and the piano roll (spec §1 and §3). Canvas 2D only.

import { fitCanvas } from "/js/canvas.js";

export const SCOPE_COLOR = "#4fbcd4";
const AXIS_LOW = 20, AXIS_HIGH = 22000;
const TICKS = [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000];
/** The spectrum's floor and top on screen, dBFS. */
export const SPECTRUM_FLOOR = -100, SPECTRUM_TOP = 0;
/** The response curve's range on screen, dB. */
const RESPONSE_LOW = -48, RESPONSE_HIGH = 24;

/** The canvas fitted to its CSS box; drawing in CSS pixels (`w` × `h`). */
function fit(canvas) {
  const { width, height, ratio } = fitCanvas(canvas);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { ctx, w: width / ratio, h: height / ratio };
}

/** x of a frequency on the filter panel's log axis. */
export function axisX(f, w) {
  return (Math.log(Math.max(f, AXIS_LOW) / AXIS_LOW) / Math.log(AXIS_HIGH / AXIS_LOW)) * w;
}

/** The ADSR curve: attack, decay, a sustain plateau, release; times to scale (at least a sliver each). */
export function drawADSR(canvas, { attack, decay, sustain, release }, color = "#e8c26a") {
  const { ctx, w, h } = fit(canvas);
  ctx.clearRect(0, 0, w, h);
  const hold = 0.5;
  const total = attack + decay + hold + release;
  const px = (t) => 4 + (t / total) * (w - 8);
  const py = (g) => h - 6 - g * (h - 12);
  ctx.strokeStyle = "rgba(255,255,255,0.12)";
  ctx.beginPath(); ctx.moveTo(0, py(0)); ctx.lineTo(w, py(0)); ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(px(0), py(0));
  ctx.lineTo(px(attack), py(1));
  ctx.lineTo(px(attack + decay), py(sustain));
  ctx.lineTo(px(attack + decay + hold), py(sustain));
  ctx.lineTo(px(total), py(0));
  ctx.stroke();
  ctx.fillStyle = "rgba(255,255,255,0.55)";
  ctx.font = "10px system-ui";
  for (const [t, label] of [[attack / 2, "A"], [attack + decay / 2, "D"], [attack + decay + hold / 2, "S"], [total - release / 2, "R"]]) {
    ctx.fillText(label, px(t) - 3, h - 1);
  }
}

/** Spectrum bars (dBFS) and the filters' magnitude response (dB) at the bars' centres, cutoff markers. */
export function drawFilter(canvas, { bands = [], spectrum = [], response = [], cutoffs = null }) {
  const { ctx, w, h } = fit(canvas);
  ctx.fillStyle = "#101015";
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = "rgba(255,255,255,0.08)";
  ctx.fillStyle = "rgba(255,255,255,0.45)";
  ctx.font = "10px system-ui";
  for (const f of TICKS) {
    const x = axisX(f, w);
    ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, h); ctx.stroke();
    ctx.fillText(f >= 1000 ? `${f / 1000}k` : String(f), x + 2, h - 3);
  }
  // Bars: each from its band's lower edge to the next centre.
  for (let i = 0; i < Math.min(bands.length, spectrum.length); i++) {
    const level = Math.max(0, Math.min(1, (spectrum[i] - SPECTRUM_FLOOR) / (SPECTRUM_TOP - SPECTRUM_FLOOR)));
    const x0 = axisX(i > 0 ? Math.sqrt(bands[i - 1] * bands[i]) : AXIS_LOW, w);
    const x1 = axisX(i + 1 < bands.length ? Math.sqrt(bands[i] * bands[i + 1]) : AXIS_HIGH, w);
    ctx.fillStyle = `rgba(79,188,212,${0.25 + 0.55 * level})`;
    ctx.fillRect(x0 + 0.5, h - level * h, Math.max(1, x1 - x0 - 1), level * h);
  }
  // The response: 0 dB at 2/3 height.
  const ry = (db) => h - ((Math.max(RESPONSE_LOW, Math.min(RESPONSE_HIGH, db)) - RESPONSE_LOW) / (RESPONSE_HIGH - RESPONSE_LOW)) * h;
  ctx.strokeStyle = "rgba(255,255,255,0.2)";
  ctx.setLineDash([3, 3]);
  ctx.beginPath(); ctx.moveTo(0, ry(0)); ctx.lineTo(w, ry(0)); ctx.stroke();
  ctx.setLineDash([]);
  if (response.length && bands.length) {
    ctx.strokeStyle = "#f2b450";
    ctx.lineWidth = 2;
    ctx.beginPath();
    response.forEach((db, i) => { const x = axisX(bands[i], w); if (i === 0) ctx.moveTo(x, ry(db)); else ctx.lineTo(x, ry(db)); });
    ctx.stroke();
    ctx.lineWidth = 1;
  }
  if (cutoffs) {
    ctx.fillStyle = "#f2b450";
    for (const f of [cutoffs.low, cutoffs.high]) {
      if (f > AXIS_LOW && f < AXIS_HIGH) ctx.fillRect(axisX(f, w) - 1, 0, 2, 6);
    }
  }
}

/** The LFO tables of spec §1 (one cycle, phase 0…1 → −1…1). */
export function lfoShape(waveform, p) {
  p = ((p % 1) + 1) % 1;
  switch (waveform) {
    case "saw": return -1 + 2 * p;
    case "rsaw": return 1 - 2 * p;
    case "square": return p < 0.5 ? -1 : 1;
    case "pulse": return p < 0.25 ? 1 : -1;
    case "triangle": return p < 0.5 ? -1 + 4 * p : 3 - 4 * p;
    default: return Math.sin(2 * Math.PI * p);
  }
}

/** Two cycles at full depth (faint) and at the current depth, shifted by the phase offset, with a playhead. */
export function drawLFO(canvas, { waveform, depth, phase }, playhead = null) {
  const { ctx, w, h } = fit(canvas);
  ctx.fillStyle = "#101015";
  ctx.fillRect(0, 0, w, h);
  const mid = h / 2, amp = h / 2 - 3;
  for (const [scale, style] of [[1, "rgba(255,255,255,0.18)"], [depth, SCOPE_COLOR]]) {
    ctx.strokeStyle = style;
    ctx.lineWidth = scale === 1 ? 1 : 2;
    ctx.beginPath();
    for (let x = 0; x <= w; x++) {
      const y = mid - lfoShape(waveform, (2 * x) / w + phase) * amp * scale;
      if (x === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  if (playhead !== null) {
    ctx.fillStyle = "#f2b450";
    ctx.fillRect((playhead % 1) * (w / 2), 0, 2, h);
  }
}

/** The oscilloscope: y = s·h/2 + h/2, a 1 px line in #4fbcd4. */
export function drawScope(canvas, samples = []) {
  const { ctx, w, h } = fit(canvas);
  ctx.fillStyle = "#0b0d10";
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = SCOPE_COLOR;
  ctx.lineWidth = 1;
  ctx.beginPath();
  samples.forEach((s, i) => {
    const x = samples.length > 1 ? (i / (samples.length - 1)) * w : 0;
    const y = h / 2 - (s * h) / 2;
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  });
  ctx.stroke();
}

export const ROLL_SECONDS = 4, ROLL_LOW = 33, ROLL_HIGH = 105;

/** x of a moment `ago` seconds before now (the right edge), y of a note (higher notes higher). */
export function rollX(ago, w) { return w - (ago / ROLL_SECONDS) * w; }
export function rollY(note, h) { return h - ((note - ROLL_LOW) / (ROLL_HIGH - ROLL_LOW)) * h; }

/** The piano roll: bars [note, start, end, held] in seconds before now, 2 px tall. */
export function drawRoll(canvas, bars = []) {
  const { ctx, w, h } = fit(canvas);
  ctx.fillStyle = "#0b0d10";
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = "rgba(255,255,255,0.07)";
  for (let s = 1; s < ROLL_SECONDS; s++) { const x = rollX(s, w); ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, h); ctx.stroke(); }
  for (const [note, start, end, held] of bars) {
    if (note < ROLL_LOW || note > ROLL_HIGH) continue;
    const x0 = Math.max(0, rollX(start, w)), x1 = rollX(held ? 0 : end, w);
    ctx.fillStyle = held ? "#f2b450" : SCOPE_COLOR;
    ctx.fillRect(x0, rollY(note, h) - 1, Math.max(1, x1 - x0), 2);
  }
}
