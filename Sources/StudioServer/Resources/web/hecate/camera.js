// Hecate's page camera and Selfie view (the camera itself is js/camera.js's PageCamera, shared with the
// Hands page): the face model's frames; each answer's landmarks and face-mesh contours are drawn over the
// mirrored image, with the main blendshapes, the head angles and the latency beside it.

import { PageCamera } from "/js/camera.js";

const SHOWN = [["jawOpen", "Jaw open"], ["browInnerUp", "Brows up"], ["mouthSmileLeft", "Smile L"], ["mouthSmileRight", "Smile R"],
  ["cheekPuff", "Cheek puff"], ["mouthPucker", "Pucker"], ["eyeBlinkLeft", "Blink L"], ["eyeBlinkRight", "Blink R"]];

export class HecateCamera extends PageCamera {
  /** `els`: toggle (button), status, selfie (section), canvas, blend (container), head, latency. */
  constructor(studio, els) {
    super(studio, { ...els, view: els.selfie }, { model: "face", idle: "Tap Use camera to play with your face through this device's camera." });
    this.contours = [];
    this.bars = {};
    for (const [name, label] of SHOWN) {
      const fill = document.createElement("span");
      fill.className = "fill";
      const row = document.createElement("div");
      row.className = "blend";
      row.dataset.testid = `selfie-${name}`;
      row.dataset.value = "";
      const text = document.createElement("span");
      text.className = "name";
      text.textContent = label;
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.append(fill);
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = "—";
      row.append(text, bar, value);
      els.blend.append(row);
      this.bars[name] = { row, fill, value };
    }
    window.hecateCamera = this;
  }

  accept(m) { if (m.contours) this.contours = m.contours; }

  describe(m) {
    if (m.face) return ["Tracking your face.", "tracking"];
    return m.points ? ["Face found: settling…", "settling"] : ["No face in view: look into the camera.", "searching"];
  }

  show(m) {
    for (const [name] of SHOWN) {
      const v = m.blend?.[name], bar = this.bars[name];
      bar.row.dataset.value = v === undefined ? "" : String(v);
      bar.fill.style.width = `${((v ?? 0) * 100).toFixed(1)}%`;
      bar.value.textContent = v === undefined ? "—" : v.toFixed(2);
    }
    const head = this.els.head;
    if (m.head) {
      const deg = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}°`;
      head.textContent = `turn ${deg(m.head.yaw)} · nod ${deg(m.head.pitch)} · tilt ${deg(m.head.roll)}`;
      head.dataset.yaw = String(m.head.yaw);
      head.dataset.pitch = String(m.head.pitch);
      head.dataset.roll = String(m.head.roll);
    } else {
      head.textContent = "no head angles";
      delete head.dataset.yaw; delete head.dataset.pitch; delete head.dataset.roll;
    }
  }

  /** The face mesh's contours and landmarks (violet once reported, ember while settling). */
  overlay(g, w, h) {
    const p = this.last?.points;
    if (!p) return;
    const tracked = !!this.last.face;
    g.strokeStyle = tracked ? "rgba(166, 51, 217, 0.9)" : "rgba(242, 89, 51, 0.8)";
    g.lineWidth = 1.5;
    g.beginPath();
    for (const [a, b] of this.contours) {
      if (2 * b + 1 >= p.length || 2 * a + 1 >= p.length) continue;
      g.moveTo(p[2 * a] * w, p[2 * a + 1] * h);
      g.lineTo(p[2 * b] * w, p[2 * b + 1] * h);
    }
    g.stroke();
    g.fillStyle = tracked ? "rgba(232, 224, 208, 0.75)" : "rgba(242, 89, 51, 0.6)";
    for (let i = 0; i + 1 < p.length; i += 2) g.fillRect(p[i] * w - 0.75, p[i + 1] * h - 0.75, 1.5, 1.5);
  }
}
