// The seed's CRT oscilloscope (OscilloscopeView): phosphor-green trace with bloom, scanlines, a
// graticule, a vignette and persistence (the previous traces fade rather than vanish).

import { fitCanvas } from "/js/canvas.js";

export class CRTScope {
  constructor(canvas) {
    this.canvas = canvas;
    this.samples = new Float32Array(0);
    this.dirty = true;
    this.phosphor = getComputedStyle(document.body).getPropertyValue("--phosphor").trim() || "#39FF7A";
  }

  /** The newest output samples (mono, −1…1, oldest first). */
  feed(samples) { this.samples = samples; this.dirty = true; }

  draw() {
    this.dirty = false;
    const c = this.canvas, { width: w, height: h, ratio } = fitCanvas(c);
    const g = c.getContext("2d");
    // Persistence: darken the last picture instead of clearing it.
    g.fillStyle = "rgba(2, 10, 4, 0.45)";
    g.fillRect(0, 0, w, h);
    g.strokeStyle = "rgba(57, 255, 122, 0.10)";
    g.lineWidth = 1;
    for (let k = 1; k < 8; k++) { g.beginPath(); g.moveTo((k * w) / 8, 0); g.lineTo((k * w) / 8, h); g.stroke(); }
    for (let k = 1; k < 4; k++) { g.beginPath(); g.moveTo(0, (k * h) / 4); g.lineTo(w, (k * h) / 4); g.stroke(); }
    const s = this.samples;
    if (s.length > 1) {
      // Trigger on a rising zero crossing in the first half, so a steady tone stands still.
      let start = 0;
      for (let i = 1; i < s.length / 2; i++) if (s[i - 1] < 0 && s[i] >= 0) { start = i; break; }
      const n = Math.min(s.length - start, Math.floor(s.length / 2));
      const trace = () => {
        g.beginPath();
        for (let i = 0; i < n; i++) {
          const x = (i / (n - 1)) * w, y = h / 2 - Math.max(-1, Math.min(1, s[start + i] * 1.6)) * (h / 2 - 3);
          if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
        }
        g.stroke();
      };
      g.strokeStyle = this.phosphor;
      g.shadowColor = this.phosphor;
      g.shadowBlur = 12 * ratio;   // bloom
      g.lineWidth = 2.5 * ratio;
      g.globalAlpha = 0.35;
      trace();
      g.globalAlpha = 1;
      g.shadowBlur = 4 * ratio;
      g.lineWidth = 1.2 * ratio;
      trace();
      g.shadowBlur = 0;
    }
    // Scanlines and vignette over the glass.
    g.fillStyle = "rgba(0, 0, 0, 0.18)";
    for (let y = 0; y < h; y += 3 * ratio) g.fillRect(0, y, w, ratio);
    const v = g.createRadialGradient(w / 2, h / 2, Math.min(w, h) * 0.25, w / 2, h / 2, Math.max(w, h) * 0.7);
    v.addColorStop(0, "rgba(0,0,0,0)");
    v.addColorStop(1, "rgba(0,0,0,0.55)");
    g.fillStyle = v;
    g.fillRect(0, 0, w, h);
  }
}
