// The Hands page's own camera (js/camera.js's PageCamera, shared with Hecate): the hands model's frames
// (binary kind 0x21). The server's bridge finds up to four hands; they enter the studio's live input as
// `/prospero/hand` from this page's camera and play the router as any sender's hands do (the pad draws them
// as skeletons too, mirrored as this view is: a hand moved to the player's right moves right on the pad). The camera view shows the mirrored image with each hand's 21 landmarks and bones,
// which hand it is, and the latency (frame sent → hand applied in the server).

import { PageCamera } from "/js/camera.js";
import { HAND_BONES } from "/hands/pad.js";

export class HandsCamera extends PageCamera {
  /** `els`: toggle (button), status, view (the camera panel), canvas, hands (readout), latency. */
  constructor(studio, els) {
    super(studio, els, { model: "hands", toggleText: "Camera", onClass: "camera-on",
      idle: "Tap Camera to play with your hands through this device's camera." });
    window.handsCamera = this;
  }

  /** The panel shows while the camera is on (this page's or the studio's), and to say why it cannot be. */
  status(text, kind) {
    super.status(text, kind);
    this.els.view.hidden = !(this.on || this.studioName || ["error", "blocked", "unavailable", "restarting"].includes(kind));
  }

  describe(m) {
    const n = m.hands?.length ?? 0;
    if (n === 0) return ["No hand in view: hold a hand up to the camera.", "searching"];
    return [`Tracking ${n === 1 ? "one hand" : `${n} hands`}.`, "tracking"];
  }

  show(m) {
    const hands = m.hands ?? [];
    const out = this.els.hands;
    out.textContent = hands.length
      ? hands.map((h) => `${h.side} hand (slot ${h.slot}, ${(h.conf * 100).toFixed(0)} % sure)`).join(" · ")
      : "no hands";
    out.dataset.count = String(hands.length);
    out.dataset.sides = hands.map((h) => h.side).join(",");
  }

  /** Each hand's bones and landmarks in the image's coordinates (the view mirrors them with the image). */
  overlay(g, w, h) {
    for (const hand of this.last?.hands ?? []) {
      const lm = hand.lm;
      if (lm?.length !== 63) continue;
      const p = (k) => [lm[3 * k] * w, lm[3 * k + 1] * h];
      g.strokeStyle = hand.side === "left" ? "rgba(191, 184, 166, 0.95)" : "rgba(242, 225, 184, 0.95)";
      g.lineWidth = 2.5;
      g.lineCap = "round";
      g.beginPath();
      for (const [a, b] of HAND_BONES) { g.moveTo(...p(a)); g.lineTo(...p(b)); }
      g.stroke();
      g.fillStyle = "#B8945C";
      for (let k = 0; k < 21; k++) { const [x, y] = p(k); g.beginPath(); g.arc(x, y, 3, 0, Math.PI * 2); g.fill(); }
    }
  }
}
