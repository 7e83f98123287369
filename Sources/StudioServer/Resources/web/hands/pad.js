// The pad: rosewood grain, the fret model's nickel-silver fret lines and note-label circles, the
// fingers, and hand skeletons from OSC, all in one coordinate space: x, y in 0…1 of the
// pad between the header bar and the HUD (origin top-left, y down), which is the space the router's zones and the landmarks use.

import { drawWoodGrain } from "/hands/woodgrain.js";
import { fitCanvas } from "/js/canvas.js";

/** MediaPipe's hand bones: thumb, index, middle, ring, pinky, and the palm's knuckle line. */
export const HAND_BONES = [
  [0, 1], [1, 2], [2, 3], [3, 4],
  [0, 5], [5, 6], [6, 7], [7, 8],
  [9, 10], [10, 11], [11, 12],
  [13, 14], [14, 15], [15, 16],
  [0, 17], [17, 18], [18, 19], [19, 20],
  [5, 9], [9, 13], [13, 17],
];

const LABEL_STYLE = {
  root: { fill: "#B8945C", stroke: "#F2E1B8", text: "#2E1F14", scale: 1 },
  fifth: { fill: "rgba(242, 225, 184, 0.92)", stroke: "#B8945C", text: "#2E1F14", scale: 0.9 },
  third: { fill: "rgba(46, 31, 20, 0.9)", stroke: "#F2E1B8", text: "#F2E1B8", scale: 0.85 },
  gapFill: { fill: "rgba(46, 31, 20, 0.75)", stroke: "rgba(191, 184, 166, 0.7)", text: "rgba(242, 225, 184, 0.8)", scale: 0.7 },
};

export class Pad {
  constructor(canvas, seed = 1610) {
    this.canvas = canvas;
    this.seed = seed;
    this.grain = null;
    this.frets = [];
    this.sounding = new Set();
    this.touches = [];   // [{slot, x, y, pressure, pad}] from the server's frame
    this.local = new Map(); // this page's fingers: local id → {x, y}
    this.hands = [];
    this.dirty = true;
  }

  fit() {
    const { width: w, height: h, ratio, resized } = fitCanvas(this.canvas);
    if (resized || !this.grain) {
      this.grain = document.createElement("canvas");
      this.grain.width = w; this.grain.height = h;
      drawWoodGrain(this.grain.getContext("2d"), w, h, this.seed);
    }
    return [w, h, ratio];
  }

  draw() {
    this.dirty = false;
    const [w, h, ratio] = this.fit();
    const g = this.canvas.getContext("2d");
    g.drawImage(this.grain, 0, 0);
    // Sounding zones glow softly behind the frets.
    for (const f of this.frets) {
      if (!this.sounding.has(f.note)) continue;
      const glow = g.createLinearGradient(0, f.top * h, 0, f.bottom * h);
      glow.addColorStop(0, "rgba(232, 184, 96, 0.05)");
      glow.addColorStop(0.5, "rgba(232, 184, 96, 0.28)");
      glow.addColorStop(1, "rgba(232, 184, 96, 0.05)");
      g.fillStyle = glow;
      g.fillRect(0, f.top * h, w, (f.bottom - f.top) * h);
    }
    // Fret wires at every zone edge: a dark groove, the nickel-silver wire, a highlight.
    const edges = new Set();
    for (const f of this.frets) { edges.add(f.top.toFixed(6)); edges.add(f.bottom.toFixed(6)); }
    for (const e of edges) {
      const y = Number(e) * h;
      g.fillStyle = "rgba(0, 0, 0, 0.45)";
      g.fillRect(0, y - 1 * ratio, w, 4 * ratio);
      const wire = g.createLinearGradient(0, y - 1.5 * ratio, 0, y + 1.5 * ratio);
      wire.addColorStop(0, "#8d877a");
      wire.addColorStop(0.45, "#F4F0E6");
      wire.addColorStop(1, "#7d776a");
      g.fillStyle = wire;
      g.fillRect(0, y - 1.5 * ratio, w, 3 * ratio);
    }
    // Note-label circles at the zone centres, down the left side (the seed's smart labels).
    const radius = Math.max(9 * ratio, Math.min(22 * ratio, (h / Math.max(1, this.frets.length)) * 0.32));
    g.textAlign = "center";
    g.textBaseline = "middle";
    for (const f of this.frets) {
      if (!f.label) continue;
      const style = LABEL_STYLE[f.label.role] ?? LABEL_STYLE.gapFill;
      const r = radius * style.scale, x = Math.max(r + 8 * ratio, w * 0.06), y = ((f.top + f.bottom) / 2) * h;
      g.fillStyle = style.fill;
      g.strokeStyle = style.stroke;
      g.lineWidth = 1.5 * ratio;
      g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill(); g.stroke();
      g.fillStyle = style.text;
      g.font = `${f.label.role === "root" ? "600 " : ""}${Math.round(r * 0.78)}px system-ui, sans-serif`;
      g.fillText(f.label.name, x, y + 0.5);
    }
    // Hand skeletons (OSC): bones in cream, joints in brass, the palm centre that picks the zone.
    for (const hand of this.hands) {
      const p = hand.landmarks.map(([x, y]) => [x * w, y * h]);
      if (p.length !== 21) continue;
      g.strokeStyle = hand.handedness === "left" ? "rgba(191, 184, 166, 0.9)" : "rgba(242, 225, 184, 0.9)";
      g.lineWidth = 3 * ratio;
      g.lineCap = "round";
      g.beginPath();
      for (const [a, b] of HAND_BONES) { g.moveTo(p[a][0], p[a][1]); g.lineTo(p[b][0], p[b][1]); }
      g.stroke();
      g.fillStyle = "#B8945C";
      for (const [x, y] of p) { g.beginPath(); g.arc(x, y, 3.5 * ratio, 0, Math.PI * 2); g.fill(); }
      const centre = [0, 5, 9, 13, 17].reduce((s, k) => [s[0] + p[k][0] / 5, s[1] + p[k][1] / 5], [0, 0]);
      g.strokeStyle = "#39FF7A";
      g.lineWidth = 2 * ratio;
      g.beginPath(); g.arc(centre[0], centre[1], 10 * ratio, 0, Math.PI * 2); g.stroke();
      g.fillStyle = "rgba(242, 225, 184, 0.85)";
      g.font = `${Math.round(12 * ratio)}px system-ui`;
      g.fillText(`${hand.handedness} ${hand.slot}`, centre[0], centre[1] - 20 * ratio);
    }
    // Fingers: the server's view (every page's and OSC fingers), and this page's own at once.
    const drawFinger = (x, y, strength, own) => {
      const r = (26 + 14 * strength) * ratio;
      const halo = g.createRadialGradient(x * w, y * h, 0, x * w, y * h, r);
      halo.addColorStop(0, own ? "rgba(242, 225, 184, 0.55)" : "rgba(184, 148, 92, 0.5)");
      halo.addColorStop(1, "rgba(184, 148, 92, 0)");
      g.fillStyle = halo;
      g.beginPath(); g.arc(x * w, y * h, r, 0, Math.PI * 2); g.fill();
      g.strokeStyle = own ? "#F2E1B8" : "#B8945C";
      g.lineWidth = 2 * ratio;
      g.beginPath(); g.arc(x * w, y * h, 14 * ratio, 0, Math.PI * 2); g.stroke();
    };
    for (const t of this.touches) drawFinger(t.x, t.y, t.pressure, false);
    for (const t of this.local.values()) drawFinger(t.x, t.y, 0.5, true);
  }
}
