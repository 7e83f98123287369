// The test tone page: on/off, frequency, level, the 1 kHz reference, and a pad (one finger).
import { StudioConnection } from "/js/studio.js";
import { OberonPanels } from "/js/panels.js";
import { button, slider } from "/js/ui.js";
import { followActive } from "/js/active.js";

const studio = new StudioConnection();
window.studio = studio;
new OberonPanels(document.getElementById("panels"), studio);

const state = { on: false, frequency: 1000, level: -18 };
const onButton = button("Tone off", { label: "Tone on or off", testid: "tone-on", pressed: false, onclick: () => studio.set("tone.on", !state.on) });
const reference = button("1 kHz at −18 dBFS", { label: "Reference tone, 1 kHz at minus 18 dBFS", testid: "tone-reference", onclick: () => studio.action("tone.reference") });
// The slider is logarithmic: 0…1 → 20 Hz…20 kHz.
const freq = slider("Frequency", { testid: "tone-frequency", min: 0, max: 1, step: 0.001, value: Math.log(1000 / 20) / Math.log(1000),
  oninput: (v) => studio.set("tone.frequency", Math.round(20 * Math.pow(1000, v))) });
const level = slider("Level (dBFS)", { testid: "tone-level", min: -60, max: -6, step: 1, value: -18, oninput: (v) => studio.set("tone.level", v) });
const readout = document.createElement("span");
readout.dataset.testid = "tone-readout";
document.getElementById("controls").append(onButton, reference, freq, level, readout);

function show() {
  onButton.textContent = state.on ? "Tone on" : "Tone off";
  onButton.setAttribute("aria-pressed", String(state.on));
  readout.textContent = `${Math.round(state.frequency)} Hz, ${state.level} dBFS`;
  freq.querySelector("input").value = Math.log(state.frequency / 20) / Math.log(1000);
  level.querySelector("input").value = state.level;
}

studio.on("connection", (online) => {
  const c = document.getElementById("connection");
  c.classList.toggle("online", online);
  c.textContent = online ? "connected" : "server lost — reconnecting";
});
followActive(studio, "tone", { state: (s) => { Object.assign(state, s); show(); } });

// The pad: one finger plays; pointerup, pointercancel, leaving and a hidden page end it.
const pad = document.getElementById("tone-pad");
let finger = null;
const position = (e) => {
  const r = pad.getBoundingClientRect();
  return [Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (e.clientY - r.top) / r.height))];
};
pad.addEventListener("pointerdown", (e) => {
  if (finger !== null) return;
  finger = e.pointerId;
  pad.setPointerCapture(e.pointerId);
  studio.touch(0, "down", ...position(e), e.pressure || 1);
});
pad.addEventListener("pointermove", (e) => { if (e.pointerId === finger) studio.touch(0, "move", ...position(e), e.pressure || 1); });
const end = (phase) => (e) => { if (e.pointerId === finger) { studio.touch(0, phase, ...position(e), 0); finger = null; } };
pad.addEventListener("pointerup", end("up"));
pad.addEventListener("pointercancel", end("cancel"));
studio.on("hidden", () => { if (finger !== null) { studio.touch(0, "cancel", 0, 0, 0); finger = null; } });
show();
studio.connect();
