// Oberon panels for every page: peak and RMS meters (ballistics applied on the server by Oberon's
// PeakMeter and RMSMeter), the waveform (scope) and the spectrum, drawn at display rate from the
// latest binary frames (kinds 0x01, 0x02, 0x03 of docs/studio-protocol.md).
//
//   import { OberonPanels } from "/js/panels.js";
//   new OberonPanels(document.querySelector("#panels"), studio);

import { fitCanvas } from "/js/canvas.js";

const FLOOR_DB = -60;

export function dbOf(linear) {
  return linear > 0 ? 20 * Math.log10(linear) : -Infinity;
}

/** 0…1 along a meter for a level in dBFS (FLOOR_DB … 0). */
export function meterPosition(db) {
  if (!Number.isFinite(db)) return 0;
  return Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB));
}

/** Whether two frames of values are equal, element by element (a silent page's frames repeat). */
function same(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class OberonPanels {
  constructor(container, studio, { colors = {} } = {}) {
    this.container = container;
    this.meters = new Float32Array(4);
    this.scope = new Float32Array(0);
    this.spectrum = new Float32Array(0);
    container.classList.add("oberon-panels");
    container.innerHTML = `
      <div><div class="label">Level</div><canvas data-testid="panel-meters" aria-label="Peak and RMS meters, left and right" role="img" width="64" height="120"></canvas></div>
      <div><div class="label">Waveform</div><canvas data-testid="panel-scope" aria-label="Waveform" role="img" width="400" height="120"></canvas></div>
      <div><div class="label">Spectrum</div><canvas data-testid="panel-spectrum" aria-label="Spectrum" role="img" width="400" height="120"></canvas></div>`;
    [this.meterCanvas, this.scopeCanvas, this.spectrumCanvas] = container.querySelectorAll("canvas");
    const css = getComputedStyle(document.body);
    this.colors = {
      accent: colors.accent ?? (css.getPropertyValue("--accent").trim() || "#B8945C"),
      fg: colors.fg ?? (css.getPropertyValue("--fg").trim() || "#F2E1B8"),
      hot: colors.hot ?? "#F25933",
      scope: colors.scope ?? (css.getPropertyValue("--phosphor").trim() || "#39FF7A"),
    };
    // Drawn on the one animation frame after something changed (new values, or a canvas's size), and no frame is
    // asked for otherwise. A page that kept an animation-frame loop running, even one that drew nothing, kept
    // the browser compositing at display rate: 1.1–1.9 cores of a laptop's renderer (SwiftShader) for a page
    // showing silence, and a phone left on its stand pays it in battery.
    this.framePending = false;
    const changed = () => {
      if (this.framePending) return;
      this.framePending = true;
      requestAnimationFrame(() => { this.framePending = false; this.draw(); });
    };
    studio.on("meters", (v) => { if (!same(v, this.meters)) { this.meters = v; changed(); } });
    studio.on("scope", (v) => { if (!same(v, this.scope)) { this.scope = v; changed(); } });
    studio.on("spectrum", (v) => { if (!same(v, this.spectrum)) { this.spectrum = v; changed(); } });
    if (typeof ResizeObserver === "function") {
      const resized = new ResizeObserver(changed);
      for (const canvas of [this.meterCanvas, this.scopeCanvas, this.spectrumCanvas]) resized.observe(canvas);
    } else {
      window.addEventListener("resize", changed);
    }
    // Exposed for tests: the latest levels the page drew, and how many times it drew.
    container.dataset.peak = "0";
    container.dataset.draws = "0";
    changed();
  }

  fit(canvas) {
    fitCanvas(canvas);
    return canvas.getContext("2d");
  }

  draw() {
    this.drawMeters();
    this.drawScope();
    this.drawSpectrum();
    this.container.dataset.peak = Math.max(this.meters[0] || 0, this.meters[1] || 0).toFixed(4);
    this.container.dataset.draws = String(Number(this.container.dataset.draws) + 1);
  }

  drawMeters() {
    const g = this.fit(this.meterCanvas), { width: w, height: h } = this.meterCanvas;
    g.clearRect(0, 0, w, h);
    const bar = w / 2 - 3;
    for (let ch = 0; ch < 2; ch++) {
      const x = ch * (w / 2) + 1;
      const rms = meterPosition(dbOf(this.meters[2 + ch]));
      const peak = meterPosition(dbOf(this.meters[ch]));
      g.fillStyle = this.colors.accent;
      g.fillRect(x, h * (1 - rms), bar, h * rms);
      g.fillStyle = peak > meterPosition(-1) ? this.colors.hot : this.colors.fg;
      g.fillRect(x, Math.min(h - 2, h * (1 - peak)), bar, 2);
    }
    g.fillStyle = "rgba(255,255,255,0.25)";
    for (const db of [-6, -12, -24, -48]) g.fillRect(0, h * (1 - meterPosition(db)), w, 1);
  }

  drawScope() {
    const g = this.fit(this.scopeCanvas), { width: w, height: h } = this.scopeCanvas;
    g.clearRect(0, 0, w, h);
    g.strokeStyle = "rgba(255,255,255,0.15)";
    g.beginPath(); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
    const s = this.scope;
    if (s.length < 2) return;
    g.strokeStyle = this.colors.scope;
    g.lineWidth = Math.max(1, w / 400);
    g.shadowColor = this.colors.scope;
    g.shadowBlur = 6;
    g.beginPath();
    for (let i = 0; i < s.length; i++) {
      const x = (i / (s.length - 1)) * w, y = h / 2 - Math.max(-1, Math.min(1, s[i])) * (h / 2 - 2);
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    }
    g.stroke();
    g.shadowBlur = 0;
  }

  drawSpectrum() {
    const g = this.fit(this.spectrumCanvas), { width: w, height: h } = this.spectrumCanvas;
    g.clearRect(0, 0, w, h);
    const bars = this.spectrum;
    if (bars.length === 0) return;
    const bw = w / bars.length;
    g.fillStyle = this.colors.accent;
    for (let i = 0; i < bars.length; i++) {
      const p = Math.min(1, Math.max(0, (bars[i] + 90) / 90));
      g.fillRect(i * bw + 1, h * (1 - p), bw - 2, h * p);
    }
  }
}
