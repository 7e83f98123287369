// HiSynth's rack (spec §1 and §3): oscillators, envelope with its label and curve, filters over the live
// spectrum with their real response, LFOs with the matrix and previews, effects, presets, the song
// player, the scope, the piano roll, the 25-key keyboard and the walkthrough. Protocol v1:
// `set hisynth.<control>`, `action hisynth.<action>`; the server's frames draw the views.

import { StudioConnection } from "/js/studio.js";
import { followActive } from "/js/active.js";
import { LearnButtons } from "/js/learn.js";
import { element, button } from "/js/ui.js";
import { drawADSR, drawFilter, drawLFO, drawScope, drawRoll } from "/hisynth/views.js";
import { Keyboard } from "/hisynth/keyboard.js";
import { Walkthrough } from "/hisynth/walkthrough.js";

const ID = "hisynth";
/** A control's values go out at most this often while it moves (ms); the last one always goes. */
const SEND_INTERVAL_MS = 30;

const studio = new StudioConnection({ subscribe: ["state", "status", "frames"] });
const state = {};
let frame = null;
window.studio = studio;
window.hisynth = { state, get frame() { return frame; }, studio };   // for tests and the curious

const testid = (name) => `${ID}-${name.replace(/\./g, "-")}`;
const controls = new Map();   // control name → { show(value) }

// MARK: Sending (throttled per path)

const pending = new Map();
function sendSet(path, value) {
  const slot = pending.get(path) ?? { last: 0, timer: null, value: null };
  slot.value = value;
  pending.set(path, slot);
  const now = performance.now();
  const wait = SEND_INTERVAL_MS - (now - slot.last);
  if (wait <= 0) {
    slot.last = now;
    studio.set(`${ID}.${path}`, value);
  } else if (!slot.timer) {
    slot.timer = setTimeout(() => { slot.timer = null; slot.last = performance.now(); studio.set(`${ID}.${path}`, slot.value); }, wait);
  }
}

// MARK: Controls built from the state's descriptions

const LABELS = {
  waveform: "Wave", level: "Level", pitch: "Pitch", attack: "Attack", decay: "Decay", sustain: "Sustain", release: "Release",
  cutoff: "Cutoff", resonance: "Resonance", depth: "Depth", speed: "Speed", phase: "Phase", on: "On", type: "Type", size: "Size",
  mix: "Mix", feedback: "Feedback", time: "Time", gain: "Gain", rate: "Rate",
};
const GROUPS = { osc1: "Osc 1", osc2: "Osc 2", env: "Envelope", lp: "Low-pass", hp: "High-pass", lfo1: "LFO 1", lfo2: "LFO 2", lfo3: "LFO 3",
  reverb: "Reverb", delay: "Delay", drive: "Drive", decimator: "Decimator" };

function describe(name) {
  const [group, part] = name.split(".");
  return `${GROUPS[group] ?? group} ${(LABELS[part] ?? part).toLowerCase()}`;
}

function format(c, v) {
  if (typeof v !== "number") return String(v);
  const [, part] = c.name.split(".");
  if (part === "phase") return `${(v * 2).toFixed(1)}π`;
  if (part === "cutoff") return v >= 1000 ? `${(v / 1000).toFixed(2)} kHz` : `${Math.round(v)} Hz`;
  if (c.unit === "s") return v < 1 ? `${Math.round(v * 1000)} ms` : `${v.toFixed(2)} s`;
  const digits = c.whole ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(digits)}${c.unit && c.unit !== "cycles" ? ` ${c.unit}` : ""}`;
}

function numberControl(c) {
  // Long ranges (cutoffs, release) move logarithmically so the low end is playable.
  const log = c.min > 0 && c.max / c.min >= 100;
  const toSlider = (v) => (log ? Math.log(Math.max(v, c.min) / c.min) / Math.log(c.max / c.min) : (v - c.min) / (c.max - c.min));
  const fromSlider = (s) => {
    let v = log ? c.min * Math.pow(c.max / c.min, s) : c.min + s * (c.max - c.min);
    if (c.whole) v = Math.round(v);
    return Math.min(c.max, Math.max(c.min, v));
  };
  const input = element("input", { type: "range", min: 0, max: 1, step: c.whole ? 1 / (c.max - c.min) : 0.001,
    "aria-label": describe(c.name), testid: testid(c.name) });
  const out = element("output", { class: "hs-value" });
  input.addEventListener("input", () => {
    const v = fromSlider(Number(input.value));
    input.dataset.value = String(v);
    out.textContent = format(c, v);
    sendSet(c.name, v);
  });
  controls.set(c.name, { show: (v) => {
    if (document.activeElement !== input || !input.matches(":active")) input.value = String(toSlider(v));
    input.dataset.value = String(v);
    out.textContent = format(c, v);
  } });
  return element("label", { class: "hs-control" }, element("span", { text: LABELS[c.name.split(".")[1]] ?? c.name }), input, out);
}

function flagControl(c, text) {
  const input = element("input", { type: "checkbox", "aria-label": describe(c.name), testid: testid(c.name) });
  input.addEventListener("change", () => studio.set(`${ID}.${c.name}`, input.checked));
  controls.set(c.name, { show: (v) => { input.checked = Boolean(v); } });
  return element("label", { class: "hs-flag" }, input, element("span", { text: text ?? LABELS[c.name.split(".")[1]] }));
}

function choiceControl(c) {
  const input = element("select", { "aria-label": describe(c.name), testid: testid(c.name) });
  const fill = (current) => {
    const list = c.offered.includes(current) || !current ? c.offered : [...c.offered, current];
    input.replaceChildren(...list.map((o) => element("option", { value: o, text: o })));
    input.value = current;
  };
  fill(c.offered[0]);
  input.addEventListener("change", () => studio.set(`${ID}.${c.name}`, input.value));
  controls.set(c.name, { show: (v) => fill(v) });
  return element("label", { class: "hs-control" }, element("span", { text: LABELS[c.name.split(".")[1]] }), input);
}

function control(c, text) {
  if (c.kind === "number") return numberControl(c);
  if (c.kind === "flag") return flagControl(c, text);
  return choiceControl(c);
}

const lfoCanvases = [];

function buildPanels(descriptions) {
  const by = new Map(descriptions.map((c) => [c.name, c]));
  const group = (title, names) => element("div", { class: "hs-group" }, element("h3", { text: title }), ...names.map((n) => control(by.get(n))));
  document.getElementById("osc-controls").replaceChildren(
    ...[1, 2].map((i) => group(`Osc ${i}`, [`osc${i}.waveform`, `osc${i}.level`, `osc${i}.pitch`])));
  document.getElementById("env-controls").replaceChildren(...["env.attack", "env.decay", "env.sustain", "env.release"].map((n) => control(by.get(n))));
  document.getElementById("filter-controls").replaceChildren(
    group("Low-pass", ["lp.cutoff", "lp.resonance"]), group("High-pass", ["hp.cutoff", "hp.resonance"]));
  const lfos = document.getElementById("lfo-controls");
  lfos.replaceChildren();
  lfoCanvases.length = 0;
  for (const i of [1, 2, 3]) {
    const canvas = element("canvas", { width: 160, height: 50, role: "img", "aria-label": `LFO ${i} preview`, testid: `hisynth-lfo${i}-preview` });
    lfoCanvases.push(canvas);
    lfos.append(element("div", { class: "hs-group" }, element("h3", { text: `LFO ${i}` }), canvas,
      ...[`lfo${i}.waveform`, `lfo${i}.depth`, `lfo${i}.speed`, `lfo${i}.phase`].map((n) => control(by.get(n)))));
  }
  const rows = document.getElementById("matrix-rows");
  rows.replaceChildren(...[1, 2, 3].map((i) => element("tr", {},
    element("th", { scope: "row", text: `LFO ${i}` }),
    ...["pitch", "amplitude", "filterLow", "filterHigh"].map((t) => element("td", {}, flagControl(by.get(`lfo${i}.${t}`), ""))),
    element("td", {}, button("OFF", { label: `LFO ${i}: clear its targets`, testid: `hisynth-lfo${i}-off`, onclick: () => studio.action(`${ID}.lfo${i}.off`) })))));
  const fx = document.getElementById("fx-controls");
  fx.replaceChildren(
    group("Decimator", ["decimator.on", "decimator.rate", "decimator.mix"]),
    group("Drive", ["drive.on", "drive.gain", "drive.mix"]),
    group("Delay", ["delay.on", "delay.feedback", "delay.time", "delay.mix"]),
    group("Reverb", ["reverb.on", "reverb.type", "reverb.size", "reverb.mix"]));
}

// The "?" button of each panel (the walkthrough's anchors).
const walkthrough = new Walkthrough({
  welcome: document.getElementById("welcome"), step: document.getElementById("step"),
  envelope: () => envelopeValues(),
});
window.hisynth.walkthrough = walkthrough;
for (const [i, section] of [...document.querySelectorAll(".hs-panel")].entries()) {
  const panel = section.dataset.step;
  section.querySelector("h2").append(button("?", { label: `Help: ${section.querySelector("h2").textContent}`, testid: `hisynth-help-${panel}`,
    onclick: () => walkthrough.open(i) }));
}
document.getElementById("logo").addEventListener("click", () => walkthrough.showWelcome());

function envelopeValues() {
  return { attack: state["env.attack"] ?? 0, decay: state["env.decay"] ?? 0.5, sustain: state["env.sustain"] ?? 1, release: state["env.release"] ?? 0.05 };
}

// MARK: Presets

const factoryList = document.getElementById("factory-list");
const userList = document.getElementById("user-list");
const message = document.getElementById("preset-message");
function fillList(list, names, testPrefix) {
  list.replaceChildren(...names.map((n, i) => element("option", { value: n, text: n, testid: `${testPrefix}-${i}` })));
  list.value = state.preset;
}
for (const list of [factoryList, userList]) list.addEventListener("change", () => studio.action(`${ID}.preset.load`, list.value));
const nameInput = document.getElementById("preset-name");
document.getElementById("preset-rename").addEventListener("click", () => studio.set(`${ID}.preset.name`, nameInput.value));
document.getElementById("preset-save").addEventListener("click", () => {
  const name = nameInput.value.trim();
  if (name.length < 1 || name.length > 24) { message.textContent = "A name has 1 to 24 characters."; return; }
  studio.action(`${ID}.preset.save`, name);
});
document.getElementById("import").addEventListener("click", () => {
  const text = document.getElementById("import-text").value.trim();
  if (!text) { message.textContent = "Paste a preset string first."; return; }
  studio.action(`${ID}.preset.import`, text);
});
document.getElementById("copy").addEventListener("click", async () => {
  const field = document.getElementById("export-text");
  try {
    await navigator.clipboard.writeText(field.value);
    message.textContent = "Copied to the clipboard.";
  } catch {
    field.select();
    message.textContent = "Select and copy the string (the clipboard is not available here).";
  }
});

// MARK: Player and keyboard

const songList = document.getElementById("song-list");
songList.addEventListener("change", () => studio.set(`${ID}.player.song`, Number(songList.value)));
// Play/stop follows what the engine does (a song played once ends by itself), not only what was asked.
const isPlaying = () => frame?.player?.playing ?? state.playing ?? false;
document.getElementById("play").addEventListener("click", () => studio.action(`${ID}.player.play`, !isPlaying()));
document.getElementById("loop").addEventListener("change", (e) => studio.set(`${ID}.player.loop`, e.target.checked));
const tempo = document.getElementById("tempo");
tempo.addEventListener("input", () => { document.getElementById("tempo-out").textContent = `×${Number(tempo.value).toFixed(2)}`; sendSet("player.tempo", Number(tempo.value)); });

const keyboard = new Keyboard(document.getElementById("keyboard"), {
  noteOn: (n) => studio.action(`${ID}.note.on`, n),
  noteOff: (n) => studio.action(`${ID}.note.off`, n),
  octaveStep: (d) => stepOctave(d),
});
window.hisynth.keyboard = keyboard;
function stepOctave(d) {
  const next = Math.min(7, Math.max(1, (state.octave ?? 4) + d));
  if (next !== state.octave) studio.set(`${ID}.octave`, next);
}
document.getElementById("octave-down").addEventListener("click", () => stepOctave(-1));
document.getElementById("octave-up").addEventListener("click", () => stepOctave(1));
document.getElementById("panic").addEventListener("click", () => { keyboard.releaseAll(); studio.action(`${ID}.panic`); });
studio.on("hidden", () => { keyboard.releaseAll(); studio.action(`${ID}.note.release`); });

// MARK: State

// MIDI learn beside every continuous knob (hisynth.lp.cutoff → the input "hisynth-lp-cutoff").
const learn = new LearnButtons(studio, ID, (path) => testid(path.slice(ID.length + 1)));

let built = false;
function applyState(changes) {
  Object.assign(state, changes);
  if (changes.controls && !built) { buildPanels(changes.controls); built = true; }
  if (changes.learn || changes.controls) learn.update(state.learn);
  for (const [k, v] of Object.entries(changes)) controls.get(k)?.show(v);
  if ("preset" in changes) {
    document.getElementById("preset-title").textContent = state.preset;
    if (document.activeElement !== nameInput) nameInput.value = state.preset;
  }
  if (changes.factoryPresets || "preset" in changes) fillList(factoryList, state.factoryPresets ?? [], "hisynth-factory");
  if (changes.userPresets || "preset" in changes) fillList(userList, state.userPresets ?? [], "hisynth-user");
  if ("presetString" in changes) document.getElementById("export-text").value = state.presetString ?? "";
  if ("envelopeLabel" in changes) document.getElementById("env-label").textContent = state.envelopeLabel;
  if (Object.keys(changes).some((k) => k.startsWith("env."))) drawADSR(document.getElementById("adsr"), envelopeValues());
  if (changes.songs) {
    songList.replaceChildren(...state.songs.map((s, i) => element("option", { value: i, text: s.composer ? `${s.title} — ${s.composer}` : s.title })));
  }
  if ("song" in changes || changes.songs) {
    songList.value = String(state.song);
    const s = state.songs?.[state.song];
    document.getElementById("song-title").textContent = s?.title ?? "No song";
    document.getElementById("song-composer").textContent = s?.composer ?? "Now Playing";
  }
  if ("playing" in changes) {
    const play = document.getElementById("play");
    play.textContent = state.playing ? "Stop" : "Play";
    play.setAttribute("aria-pressed", String(state.playing));
  }
  if ("looping" in changes) document.getElementById("loop").checked = state.looping;
  if ("tempo" in changes) { tempo.value = String(state.tempo); document.getElementById("tempo-out").textContent = `×${state.tempo.toFixed(2)}`; }
  if ("octave" in changes) {
    keyboard.setOctave(state.octave);
    document.getElementById("octave").textContent = `C${state.octave}`;
  }
  if ("canSave" in changes) document.getElementById("preset-save").disabled = !state.canSave;
  if (built) for (const [i, canvas] of lfoCanvases.entries()) drawLFO(canvas, lfoValues(i), frame?.lfo?.phases?.[i] ?? null);
}

function lfoValues(i) {
  const p = `lfo${i + 1}.`;
  return { waveform: state[p + "waveform"] ?? "sine", depth: state[p + "depth"] ?? 0, phase: state[p + "phase"] ?? 0 };
}

// MARK: Frames

let drawPending = false;
function draw() {
  drawPending = false;
  if (!frame) return;
  drawFilter(document.getElementById("filter-view"), { bands: state.spectrumBands ?? [], spectrum: frame.spectrum, response: frame.response, cutoffs: frame.cutoffs });
  drawScope(document.getElementById("scope"), frame.scope);
  drawRoll(document.getElementById("roll"), frame.roll);
  for (const [i, canvas] of lfoCanvases.entries()) {
    const v = lfoValues(i);
    drawLFO(canvas, v, (frame.lfo.phases[i] + v.phase) % 1);
  }
  const p = frame.player;
  const play = document.getElementById("play");
  play.textContent = p.playing ? "Stop" : "Play";
  play.setAttribute("aria-pressed", String(p.playing));
  document.getElementById("song-position").textContent = p.duration > 0 ? ` ${p.position.toFixed(1)} / ${p.duration.toFixed(1)} s` : "";
  keyboard.setExternal(frame.held);
}

studio.on("frame", (m) => {
  if (m.instrument !== ID) return;
  frame = m.frame;
  if (!drawPending) { drawPending = true; requestAnimationFrame(draw); }
});

studio.on("connection", (online) => {
  const c = document.getElementById("connection");
  c.classList.toggle("online", online);
  c.textContent = online ? "connected" : "server lost — reconnecting";
});
followActive(studio, ID, { state: applyState });
studio.on("error", (m) => {
  if (typeof m.ref === "string" && m.ref.startsWith(`${ID}.preset`)) message.textContent = m.message;
});

drawADSR(document.getElementById("adsr"), envelopeValues());
walkthrough.showWelcome();
studio.connect();
