// The hands and touch screen: a full-screen multi-touch pad playing the MIDIRouter (up to four
// fingers, touch0–touch3), its settings and synth panel, note lights, dials, a CRT scope, and hand
// skeletons when a hand tracker sends over OSC. Protocol v1: `touch`, `set hands.*`, `action hands.*`.

import { StudioConnection } from "/js/studio.js";
import { OberonPanels } from "/js/panels.js";
import { element } from "/js/ui.js";
import { followActive } from "/js/active.js";
import { noteName as spelled } from "/js/notes.js";
import { Pad } from "/hands/pad.js";
import { Dial } from "/hands/dial.js";
import { Knob } from "/hands/knob.js";
import { LearnButtons } from "/js/learn.js";
import { CRTScope } from "/hands/crt.js";
import { KeyboardStrip } from "/hands/keyboard.js";
import { TouchForce } from "/js/touch-force.js";
import { HandsCamera } from "/hands/camera.js";

const ID = "hands";
/** Touch slots the protocol carries: a fifth finger is ignored until one lifts. */
const SLOTS = 4;
/** A finger's moves go out at most this often (ms): four fingers stay under the server's 120 messages/s. */
const MOVE_INTERVAL_MS = 40;
/** The wake lock is let go this long after the last finger lifts. */
const WAKE_HOLD_MS = 60_000;

const studio = new StudioConnection();
const state = { frets: [], keys: [], scales: [], synthControls: [] };
const hud = { notes: [], touches: [], hands: [], synthNotes: [], velocity: 0, mod: 0 };
window.studio = studio;
window.hands = { state, hud };   // for tests and the curious

const pad = new Pad(document.getElementById("pad"));
const velocityDial = new Dial(document.getElementById("dial-velocity"), "Velocity");
const modDial = new Dial(document.getElementById("dial-mod"), "Mod");
// The dials turn (seed 001's knobs): velocity of a touch that measures no force, and the mod wheel (CC 1).
const velocityKnob = new Knob(document.getElementById("dial-velocity"), {
  min: 40, max: 127, onChange: (v) => studio.set(`${ID}.velocity`, v), onShow: (v) => velocityDial.set(v / 127),
  describe: (v) => `velocity ${v}`,
});
const modKnob = new Knob(document.getElementById("dial-mod"), {
  min: 0, max: 127, onChange: (v) => studio.set(`${ID}.mod`, v), onShow: (v) => modDial.set(v / 127),
  describe: (v) => `mod wheel ${v}`,
});
window.hands.knobs = { velocity: velocityKnob, mod: modKnob };
const scope = new CRTScope(document.getElementById("scope"));
const keyboard = new KeyboardStrip(document.getElementById("keyboard"));
new OberonPanels(document.getElementById("panels"), studio);
// This device's camera: its hands play the router as any tracker's (hands/camera.js).
new HandsCamera(studio, {
  toggle: document.getElementById("camera-toggle"), status: document.getElementById("camera-status"),
  view: document.getElementById("hands-camera"), canvas: document.getElementById("hands-camera-canvas"),
  hands: document.getElementById("hands-camera-hands"), latency: document.getElementById("camera-latency"),
});
studio.on("scope", (samples) => scope.feed(samples));

// MARK: Controls

/** A note's name as the current key spells it. */
const noteName = (n) => spelled(n, state.key);
const controls = new Map();   // state key → { input, output?, show(value) }

function labelled(text, input, readout) {
  return element("label", {}, element("span", { text }), input, readout ?? element("span"));
}

function selectControl(key, text, options, testid) {
  const input = element("select", { "aria-label": text, testid });
  const fill = (list) => {
    input.replaceChildren(...list.map(([v, t]) => element("option", { value: v, text: t })));
  };
  fill(options);
  input.addEventListener("change", () => studio.set(`${ID}.${key}`, input.value));
  controls.set(key, { input, fill, show: (v) => { input.value = String(v); } });
  return labelled(text, input);
}

function numberControl(key, text, { min, max, step = 1, testid, describe }) {
  const input = element("input", { type: "number", min, max, step, "aria-label": text, testid });
  const readout = element("output", { "aria-live": "off" });
  input.addEventListener("change", () => {
    const v = Number(input.value);
    if (Number.isFinite(v)) studio.set(`${ID}.${key}`, v);
  });
  controls.set(key, { input, show: (v) => { input.value = String(v); readout.textContent = describe ? describe(v) : ""; } });
  return labelled(text, input, readout);
}

controls.set("velocity", { show: (v) => velocityKnob.show(v) });
controls.set("mod", { show: (v) => modKnob.show(v) });

/** The rows shown only in one channel mode (`perHand`: the four slots' channels). */
const channelRows = {};

// Four channels, one per slot ("1,2,3,4": hand and touch i share the i-th), as `--per-hand-channels`.
function channelsControl(key, text, testid) {
  const input = element("input", { type: "text", inputmode: "numeric", pattern: "\\s*\\d+\\s*(,\\s*\\d+\\s*){3}",
    "aria-label": text, testid, size: 11 });
  input.addEventListener("change", () => studio.set(`${ID}.${key}`, input.value));
  const row = labelled(text, input);
  controls.set(key, { input, show: (v) => { if (document.activeElement !== input) input.value = String(v); } });
  channelRows.perHand = row;
  return row;
}

function checkControl(key, text, testid) {
  const input = element("input", { type: "checkbox", "aria-label": text, testid });
  input.addEventListener("change", () => studio.set(`${ID}.${key}`, input.checked));
  controls.set(key, { input, show: (v) => { input.checked = Boolean(v); } });
  return labelled(text, input);
}

function rangeControl(key, text, { min, max, testid, unit = "" }) {
  // Long ranges (cutoff, times) move logarithmically so the low end is playable.
  const log = min > 0 && max / min >= 100;
  const toSlider = (v) => (log ? Math.log(v / min) / Math.log(max / min) : (v - min) / (max - min));
  const fromSlider = (s) => (log ? min * Math.pow(max / min, s) : min + s * (max - min));
  const input = element("input", { type: "range", min: 0, max: 1, step: 0.001, "aria-label": text, testid });
  const readout = element("output");
  const format = (v) => `${Math.abs(v) >= 100 ? Math.round(v) : Number(v.toPrecision(3))}${unit}`;
  let pending = null;
  input.addEventListener("input", () => {
    const v = Number(fromSlider(Number(input.value)).toPrecision(4));
    readout.textContent = format(v);
    // One value per animation frame at most: a dragged slider must not flood the socket.
    if (pending === null) requestAnimationFrame(() => { studio.set(`${ID}.${key}`, pending); pending = null; });
    pending = v;
  });
  controls.set(key, { input, show: (v) => { input.value = String(toSlider(v)); readout.textContent = format(v); } });
  return labelled(text, input, readout);
}

const UNITS = { attack: " s", release: " s", lfoRate: " Hz", toneCutoff: " Hz", fuzzDrive: " dB", delayTime: " s", reverbDecay: " s", gain: " dB" };
const SYNTH_LABELS = {
  waveform: "Waveform", attack: "Attack", release: "Release", portamento: "Glide", lfo: "LFO", lfoRate: "LFO rate",
  lfoDepth: "LFO depth", tone: "Tone", toneCutoff: "Tone cutoff", fuzz: "Fuzz", fuzzDrive: "Fuzz drive", delay: "Delay",
  delayTime: "Delay time", delayFeedback: "Delay feedback", delayMix: "Delay mix", reverb: "Reverb",
  reverbDecay: "Reverb decay", reverbMix: "Reverb mix", gain: "Gain",
};

function buildNoteControls() {
  const box = document.getElementById("note-controls");
  box.replaceChildren(
    selectControl("key", "Key", [], "hands-key"),
    selectControl("scale", "Scale", [], "hands-scale"),
    numberControl("low", "Lowest note", { min: 0, max: 127, testid: "hands-low", describe: noteName }),
    numberControl("high", "Highest note", { min: 0, max: 127, testid: "hands-high", describe: noteName }),
    selectControl("channelMode", "Channels", [["single", "One channel"], ["perHand", "One per hand"], ["mpe", "MPE"]], "hands-channel-mode"),
    numberControl("channel", "MIDI channel", { min: 1, max: 16, testid: "hands-channel" }),
    channelsControl("channels", "Channel per slot (1,2,3,4)", "hands-channels"),
    checkControl("bend", "Bend inside a zone", "hands-bend"),
    numberControl("bendRange", "Bend range (semitones)", { min: 1, max: 24, testid: "hands-bend-range" }),
    selectControl("output", "Output", [["synth", "Built-in synth"], ["midi", "JACK MIDI"], ["both", "Both"]], "hands-output"),
  );
}

function buildSynthControls(list) {
  const box = document.getElementById("synth-controls");
  const rows = [];
  for (const c of list) {
    const key = `synth.${c.name}`, text = SYNTH_LABELS[c.name] ?? c.name, testid = `hands-synth-${c.name}`;
    if (c.kind === "number") rows.push(rangeControl(key, text, { min: c.min, max: c.max, testid, unit: UNITS[c.name] ?? "" }));
    else if (c.kind === "flag") rows.push(checkControl(key, text, testid));
    else rows.push(selectControl(key, text, c.options.map((o) => [o, o]), testid));
  }
  box.replaceChildren(...rows);
}

// MIDI learn beside every synth knob (hands.synth.attack → the input "hands-synth-attack").
const learn = new LearnButtons(studio, ID, (path) => path.replace("hands.synth.", "hands-synth-"));

function show() {
  if (Array.isArray(state.velocityRange)) velocityKnob.range(...state.velocityRange);
  for (const [key, control] of controls) if (key in state) control.show(state[key]);
  if (channelRows.perHand) channelRows.perHand.hidden = state.channelMode !== "perHand";
  learn.update(state.learn);
  document.getElementById("synth-panel").hidden = state.output === "midi";
  const f = state.frets;
  pad.frets = f;
  pad.dirty = true;
  if (f.length) keyboard.setRange(f[0].note, f[f.length - 1].note, f.map((z) => z.note));
  const key = state.key ?? "", scale = state.scales.find((s) => s.id === state.scale)?.name ?? state.scale ?? "";
  document.getElementById("summary").textContent =
    f.length ? `${key} ${scale} · ${noteName(state.low)}–${noteName(state.high)} · ${f.length} frets · ${state.output}` : "";
}

function applyState(s) {
  const scalesChanged = JSON.stringify(s.scales) !== JSON.stringify(state.scales);
  const keysChanged = JSON.stringify(s.keys) !== JSON.stringify(state.keys);
  const synthChanged = s.synthControls && JSON.stringify(s.synthControls) !== JSON.stringify(state.synthControls);
  Object.assign(state, s);
  if (keysChanged) controls.get("key").fill(state.keys.map((k) => [k, k]));
  if (scalesChanged) controls.get("scale").fill(state.scales.map((x) => [x.id, x.name]));
  if (synthChanged) buildSynthControls(state.synthControls);
  show();
}

buildNoteControls();

const toggle = document.getElementById("settings-toggle"), drawer = document.getElementById("drawer");
toggle.addEventListener("click", () => {
  drawer.hidden = !drawer.hidden;
  toggle.setAttribute("aria-expanded", String(!drawer.hidden));
});
document.getElementById("panic").addEventListener("click", () => { endAll("cancel"); studio.action(`${ID}.panic`); });

// MARK: Server

studio.on("connection", (online) => {
  const c = document.getElementById("connection");
  c.classList.toggle("online", online);
  c.textContent = online ? "connected" : "server lost — reconnecting";
  if (!online) { fingers.clear(); pad.local.clear(); }   // the server ended them when the socket went
});
followActive(studio, ID, { state: applyState });
studio.on("frame", (m) => {
  if (m.instrument !== ID) return;
  Object.assign(hud, m.frame);
  // The MIDI clock arriving at midi_in (as `prospero hands` announces it); a frame without it: none runs.
  const clock = document.getElementById("clock");
  clock.hidden = !Number.isFinite(m.frame.clockBPM);
  clock.textContent = clock.hidden ? "" : `${m.frame.clockBPM.toFixed(1)} BPM`;   // "MIDI clock" before it where there is room
  pad.touches = hud.touches;
  pad.hands = hud.hands;
  pad.sounding = new Set(hud.notes.map((n) => n.note));
  pad.dirty = true;
  keyboard.setLit(hud.notes.map((n) => n.note), hud.synthNotes);
  velocityDial.setLive(hud.velocity);   // the newest note's velocity, a mark beside the dial's setting
  document.body.dataset.sounding = hud.notes.map((n) => n.note).join(",");
});
studio.on("error", (m) => {
  if (typeof m.ref === "string" && m.ref.startsWith(`${ID}.`)) show();   // put the refused control back
});

// MARK: Fingers

/** pointerId → { id (slot 0…3 on this page), x, y, pressure, force (TouchForce's state), sentAt, pending } */
const fingers = new Map();
/** Velocity and CC 11 where the device measures no pressure: the contact's size, else the speed. */
const force = new TouchForce();
const padElement = document.getElementById("pad");

function position(e) {
  const r = padElement.getBoundingClientRect();
  return [Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (e.clientY - r.top) / r.height))];
}

padElement.addEventListener("pointerdown", (e) => {
  if (fingers.has(e.pointerId)) return;
  const used = new Set([...fingers.values()].map((f) => f.id));
  let id = 0;
  while (used.has(id)) id++;
  if (id >= SLOTS) return;   // a fifth finger: ignored
  e.preventDefault();
  try { padElement.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer cannot be captured */ }
  const [x, y] = position(e);
  const touchForce = force.down(e);
  const finger = { id, x, y, pressure: touchForce.value, force: touchForce, sentAt: performance.now(), pending: false };
  padElement.dataset.forceSource = touchForce.source;
  fingers.set(e.pointerId, finger);
  pad.local.set(id, finger);
  pad.dirty = true;
  studio.touch(id, "down", x, y, finger.pressure, touchForce.source !== "none");
  wake();
});

padElement.addEventListener("pointermove", (e) => {
  const finger = fingers.get(e.pointerId);
  if (!finger) { force.hover(e); return; }
  [finger.x, finger.y] = position(e);
  finger.pressure = force.move(e, finger.force).value;
  const now = performance.now();
  if (now - finger.sentAt >= MOVE_INTERVAL_MS) {
    studio.touch(finger.id, "move", finger.x, finger.y, finger.pressure, finger.force.source !== "none");
    finger.sentAt = now;
    finger.pending = false;
  } else {
    finger.pending = true;  // sent by the tick below, so the last position always arrives
  }
});

function end(e, phase) {
  const finger = fingers.get(e.pointerId);
  if (!finger) return;
  fingers.delete(e.pointerId);
  pad.local.delete(finger.id);
  pad.dirty = true;
  studio.touch(finger.id, phase, finger.x, finger.y, 0);
  if (fingers.size === 0) releaseWakeSoon();
}

function endAll(phase) {
  for (const [pointerId, finger] of fingers) {
    studio.touch(finger.id, phase, finger.x, finger.y, 0);
    fingers.delete(pointerId);
  }
  pad.local.clear();
  pad.dirty = true;
}

padElement.addEventListener("pointerup", (e) => end(e, "up"));
padElement.addEventListener("pointercancel", (e) => end(e, "cancel"));
padElement.addEventListener("lostpointercapture", (e) => end(e, "cancel"));
padElement.addEventListener("contextmenu", (e) => e.preventDefault());
studio.on("hidden", () => endAll("cancel"));
window.addEventListener("pagehide", () => endAll("cancel"));
window.addEventListener("blur", () => endAll("cancel"));

setInterval(() => {
  const now = performance.now();
  for (const finger of fingers.values()) {
    if (finger.pending && now - finger.sentAt >= MOVE_INTERVAL_MS) {
      studio.touch(finger.id, "move", finger.x, finger.y, finger.pressure, finger.force.source !== "none");
      finger.sentAt = now;
      finger.pending = false;
    }
  }
}, MOVE_INTERVAL_MS / 2);

// MARK: Wake lock (a phone's screen stays on while it is played)

let wakeLock = null, wakeTimer = null;
function wake() {
  clearTimeout(wakeTimer);
  if (wakeLock || !("wakeLock" in navigator) || document.hidden) return;
  navigator.wakeLock.request("screen").then((lock) => {
    wakeLock = lock;
    document.body.dataset.wakeLock = "held";
    lock.addEventListener("release", () => { wakeLock = null; document.body.dataset.wakeLock = "released"; });
  }).catch(() => { document.body.dataset.wakeLock = "unavailable"; });
}
function releaseWakeSoon() {
  clearTimeout(wakeTimer);
  wakeTimer = setTimeout(() => { wakeLock?.release().catch(() => {}); }, WAKE_HOLD_MS);
}

// MARK: Drawing at display rate

let last = performance.now();
// Each part redraws only when it changed (a phone's battery, and a busy machine's renderer, thank it).
function frame(now) {
  const dt = Math.min(0.1, (now - last) / 1000);
  last = now;
  if (pad.dirty || fingers.size > 0) pad.draw();
  velocityDial.draw(dt);
  modDial.draw(dt);
  if (scope.dirty) scope.draw();
  if (keyboard.dirty) keyboard.draw();
  requestAnimationFrame(frame);
}
window.addEventListener("resize", () => { pad.dirty = true; keyboard.dirty = true; scope.dirty = true; });
requestAnimationFrame(frame);
studio.connect();
