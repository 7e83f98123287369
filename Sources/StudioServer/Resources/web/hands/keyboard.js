// The keyboard strip: the piano keys of the note range, with a light on each sounding note (brass for
// the router's notes, phosphor green for notes the built-in synth holds) and the scale's notes marked.

import { fitCanvas } from "/js/canvas.js";

const BLACK = new Set([1, 3, 6, 8, 10]);

export class KeyboardStrip {
  constructor(canvas) {
    this.canvas = canvas;
    this.low = 48;
    this.high = 72;
    this.scaleNotes = new Set();
    this.lit = new Set();
    this.synthLit = new Set();
    this.dirty = true;
  }

  setRange(low, high, scaleNotes) {
    // Whole octaves around the range, so the strip starts on C and ends on B.
    this.low = Math.max(0, low - (low % 12));
    this.high = Math.min(127, high + (11 - (high % 12)));
    this.scaleNotes = new Set(scaleNotes);
    this.dirty = true;
  }

  setLit(notes, synthNotes) {
    this.lit = new Set(notes);
    this.synthLit = new Set(synthNotes);
    this.canvas.dataset.lit = [...this.lit].sort((a, b) => a - b).join(",");
    this.canvas.dataset.synthLit = [...this.synthLit].sort((a, b) => a - b).join(",");
    this.dirty = true;
  }

  draw() {
    this.dirty = false;
    const c = this.canvas, { width: w, height: h } = fitCanvas(c);
    const g = c.getContext("2d");
    g.clearRect(0, 0, w, h);
    const whites = [];
    for (let n = this.low; n <= this.high; n++) if (!BLACK.has(n % 12)) whites.push(n);
    if (whites.length === 0) return;
    const kw = w / whites.length;
    const x = new Map();
    whites.forEach((n, i) => x.set(n, i * kw));
    const light = (n) => (this.lit.has(n) ? "#E8B860" : this.synthLit.has(n) ? "#39FF7A" : null);
    for (const n of whites) {
      g.fillStyle = "#F2E1B8";
      g.fillRect(x.get(n) + 0.5, 0, kw - 1, h);
      const l = light(n);
      if (l) { g.fillStyle = l; g.shadowColor = l; g.shadowBlur = 10; g.fillRect(x.get(n) + 2, h * 0.55, kw - 4, h * 0.4); g.shadowBlur = 0; }
      if (this.scaleNotes.has(n)) { g.fillStyle = "#2E1F14"; g.beginPath(); g.arc(x.get(n) + kw / 2, h * 0.88, Math.min(kw, h) * 0.06, 0, 7); g.fill(); }
      if (n % 12 === 0) { g.fillStyle = "#6b5230"; g.font = `${Math.round(h * 0.2)}px system-ui`; g.fillText(`C${n / 12 - 1}`, x.get(n) + 2, h * 0.3); }
    }
    for (let n = this.low; n <= this.high; n++) {
      if (!BLACK.has(n % 12)) continue;
      const left = (x.get(n - 1) ?? 0) + kw * 0.68;
      g.fillStyle = "#1a120b";
      g.fillRect(left, 0, kw * 0.64, h * 0.6);
      const l = light(n);
      if (l) { g.fillStyle = l; g.shadowColor = l; g.shadowBlur = 10; g.fillRect(left + 2, h * 0.3, kw * 0.64 - 4, h * 0.26); g.shadowBlur = 0; }
      if (this.scaleNotes.has(n)) { g.fillStyle = "#F2E1B8"; g.beginPath(); g.arc(left + kw * 0.32, h * 0.5, Math.min(kw, h) * 0.05, 0, 7); g.fill(); }
    }
  }
}
