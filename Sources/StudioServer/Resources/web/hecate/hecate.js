// Hecate's screen: chord bar, key, pack, arpeggiator, tremolo, BPM, play-along and route, levels,
// reverb, mute; the face HUD (meters behind METERS, tone levels, head angles, face lost/found, the
// beat) and Immerse. The page draws; the server decides: every control is a `set`/`action` and the
// page shows what the server answers (docs/studio-protocol.md).
import { StudioConnection } from "/js/studio.js";
import { followActive } from "/js/active.js";
import { OberonPanels } from "/js/panels.js";
import { element, button, slider, select } from "/js/ui.js";
import { Immerse } from "/hecate/immerse.js";
import { LearnButtons } from "/js/learn.js";
import { HecateCamera } from "/hecate/camera.js";

const GUIDE_SEEN = "prospero.hecate.guideSeen";
const TONES = ["root", "third", "fifth", "seventh", "ninth", "octave"];
const TONE_LABELS = { root: "ROOT", third: "3RD", fifth: "5TH", seventh: "7TH", ninth: "9TH", octave: "OCT" };

const studio = new StudioConnection();
const $ = (id) => document.getElementById(id);
const hecate = { state: null, frame: null, frames: 0, immerse: null };
window.studio = studio;
window.hecate = hecate;

new OberonPanels($("panels"), studio);
// MIDI learn beside every knob: tempo, tremolo depth, levels.
const LEARN_TESTIDS = { "hecate.bpm": "bpm", "hecate.tremoloDepth": "tremolo-depth", "hecate.bassLevel": "bass-level", "hecate.droneLevel": "drone-level", "hecate.reverb": "reverb" };
const learn = new LearnButtons(studio, "hecate", (path) => LEARN_TESTIDS[path] ?? path);
const params = new URLSearchParams(location.search);
const immerse = new Immerse($("immerse-canvas"), { renderer: params.get("renderer") });
hecate.immerse = immerse;
// The page's own camera and the Selfie view (hecate/camera.js).
hecate.camera = new HecateCamera(studio, {
  toggle: $("camera-toggle"), status: $("camera-status"), selfie: $("selfie"), canvas: $("selfie-canvas"),
  blend: $("selfie-blend"), head: $("selfie-head"), latency: $("camera-latency"),
});

// ---- Header: connection, METERS, modes, help ----
studio.on("connection", (online) => {
  const c = $("connection");
  c.classList.toggle("online", online);
  c.textContent = online ? "connected" : "server lost — reconnecting";
});
$("meters-toggle").addEventListener("click", () => {
  const meters = $("meters"), open = meters.hidden;
  meters.hidden = !open;
  $("meters-toggle").setAttribute("aria-expanded", String(open));
  $("meters-toggle").setAttribute("aria-pressed", String(open));
});
function setMode(immersed) {
  $("immerse").hidden = !immersed;
  $("mode-immerse").setAttribute("aria-pressed", String(immersed));
  $("mode-hud").setAttribute("aria-pressed", String(!immersed));
  immerse.setVisible(immersed);
  if (immersed) $("immerse-exit").focus();
}
$("mode-immerse").addEventListener("click", () => setMode(true));
$("mode-hud").addEventListener("click", () => setMode(false));
$("immerse-exit").addEventListener("click", () => setMode(false));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { if (!$("guide").hidden) closeGuide(); else if (!$("immerse").hidden) setMode(false); }
});
$("help").addEventListener("click", () => openGuide());
$("guide-close").addEventListener("click", () => closeGuide());
function openGuide() { $("guide").hidden = false; $("guide-close").focus(); }
function closeGuide() {
  $("guide").hidden = true;
  try { localStorage.setItem(GUIDE_SEEN, "1"); } catch { /* private mode: show it again next time */ }
}

// ---- HUD: tone columns ----
const toneColumns = {};
for (const t of [...TONES, "bass"]) {
  const col = element("div", { class: "col" });
  const box = element("div", { class: `tone ${t}`, testid: `tone-${t}`, "data-level": "0" }, col,
    element("span", { class: "label", text: t === "bass" ? "BASS" : TONE_LABELS[t] }));
  $("tones").append(box);
  toneColumns[t] = { box, col };
}

// ---- Beat indicator: 8 arpeggiator steps and the tremolo pulse ----
const steps = [];
for (let i = 0; i < 8; i++) { const s = element("span", { class: "step", "data-step": String(i) }); steps.push(s); $("beat").append(s); }
const pulse = element("span", { class: "pulse", testid: "tremolo-pulse" });
$("beat").append(pulse);

// ---- BPM, ARP, mute ----
const bpmInput = $("bpm");
const sendBPM = (v) => { if (Number.isFinite(v)) studio.set("hecate.bpm", Math.min(300, Math.max(20, Math.round(v)))); };
$("bpm-down").addEventListener("click", () => sendBPM((hecate.state?.bpm ?? 90) - 1));
$("bpm-up").addEventListener("click", () => sendBPM((hecate.state?.bpm ?? 90) + 1));
bpmInput.addEventListener("change", () => sendBPM(Number(bpmInput.value)));
$("arp").addEventListener("click", () => studio.set("hecate.arpeggiator", !(hecate.state?.arpeggiator)));
$("mute").addEventListener("click", () => studio.action("hecate.mute"));

// ---- Settings (built once the state names the choices) ----
let controls = null;
function buildSettings(state) {
  const c = state.choices;
  const box = $("settings");
  box.replaceChildren();
  const packOptions = state.packs.map((p) => [p.id, p.builtIn ? p.name : `${p.name} (yours)`]);
  controls = {
    key: select("Key", c.key, { testid: "key", value: state.key, onchange: (v) => studio.set("hecate.key", v) }),
    pack: select("Sound pack", packOptions, { testid: "pack", value: state.pack, onchange: (v) => studio.set("hecate.pack", v) }),
    arpDivision: select("Arpeggiator step", c.division, { testid: "arp-division", value: state.arpDivision, onchange: (v) => studio.set("hecate.arpDivision", v) }),
    tremolo: select("Tremolo", c.tremolo, { testid: "tremolo", value: state.tremolo, onchange: (v) => studio.set("hecate.tremolo", v) }),
    tremoloDivision: select("Tremolo period", c.division, { testid: "tremolo-division", value: state.tremoloDivision, onchange: (v) => studio.set("hecate.tremoloDivision", v) }),
    tremoloDepth: slider("Tremolo depth", { testid: "tremolo-depth", min: 0, max: 1, step: 0.01, value: state.tremoloDepth, oninput: (v) => studio.set("hecate.tremoloDepth", v) }),
    bassLevel: slider("Bass level", { testid: "bass-level", min: 0, max: 1, step: 0.01, value: state.bassLevel, oninput: (v) => studio.set("hecate.bassLevel", v) }),
    droneLevel: slider("Drone level", { testid: "drone-level", min: 0, max: 1, step: 0.01, value: state.droneLevel, oninput: (v) => studio.set("hecate.droneLevel", v) }),
    reverb: slider("Reverb", { testid: "reverb", min: 0, max: 1, step: 0.01, value: state.reverb, oninput: (v) => studio.set("hecate.reverb", v) }),
    route: select("Output route", c.route, { testid: "route", value: state.route, onchange: (v) => studio.set("hecate.route", v) }),
  };
  const playAlong = element("input", { type: "checkbox", "aria-label": "Play along with other audio (lower limiter ceiling)", testid: "play-along" });
  playAlong.addEventListener("change", () => studio.set("hecate.playAlong", playAlong.checked));
  controls.playAlong = element("label", { class: "check" }, playAlong, element("span", { text: "Play along" }));
  controls.ceiling = element("span", { class: "mono", testid: "limiter-ceiling" });
  controls.summary = element("p", { class: "pack-summary", testid: "pack-summary" });
  box.append(controls.key, controls.pack, controls.arpDivision, controls.tremolo, controls.tremoloDivision, controls.tremoloDepth,
    controls.bassLevel, controls.droneLevel, controls.reverb, controls.route, controls.playAlong,
    element("label", {}, element("span", { text: "Limiter ceiling" }), controls.ceiling), controls.summary);
}

// ---- Meters and the mapping guide (from the server's mapping set: they never disagree) ----
const meterViews = {};
function buildMeters(state) {
  for (const group of ["voicing", "sculpting"]) $(`meters-${group}`).replaceChildren();
  $("guide-voicing").replaceChildren(element("tr", {}, element("td", { class: "what", text: "At rest" }), element("td", { text: "root drone" }), element("td", { class: "range", text: "" })));
  $("guide-sculpting").replaceChildren();
  for (const m of state.meters) {
    const fill = element("div", { class: "fill" });
    fill.style.background = m.colour;
    fill.style.boxShadow = `0 0 6px ${m.colour}`;
    const bar = element("div", { class: "bar" });
    for (const r of m.mappings) {
      // The sensitive window on the 0…1 signal (folded windows sit either side of the centre).
      const spans = r.absFromCenter ? [[0.5 - r.max, 0.5 - r.min], [0.5 + r.min, 0.5 + r.max]] : [[r.min, r.max]];
      for (const [a, b] of spans) {
        const w = element("div", { class: "window" });
        w.style.left = `${Math.max(0, a) * 100}%`;
        w.style.width = `${Math.max(0, Math.min(1, b) - Math.max(0, a)) * 100}%`;
        bar.append(w);
      }
    }
    bar.append(fill);
    const amount = element("span", { class: "amount", text: "—" });
    const drives = m.mappings.map((r) => `${r.drives} (${r.range})`).join(", ");
    const row = element("div", { class: "meter", testid: `meter-${m.id}`, "data-value": "0", "aria-label": `${m.label}: ${drives}` },
      element("span", { class: "name", text: m.label }), bar, amount,
      element("span", { class: "drives", text: (m.caption ? `${m.caption}: ` : "") + drives }));
    row.querySelector(".name").style.color = m.colour;
    $(`meters-${m.group}`).append(row);
    meterViews[m.id] = { row, fill, amount };
    for (const r of m.mappings) {
      // Voicing lists the tones a meter adds; sculpting the parameter it moves.
      if ((m.group === "voicing") !== (r.target.startsWith("tone.") || r.target === "bass")) continue;
      const what = GUIDE_WORDS[m.id] ?? m.label.toLowerCase();
      // The colour through the CSSOM: the Content-Security-Policy refuses style attributes.
      const swatch = element("span", { class: "swatch" });
      swatch.style.background = m.colour;
      $(`guide-${m.group}`).append(element("tr", {},
        element("td", { class: "what" }, swatch, what),
        element("td", { text: r.drives }), element("td", { class: "range", text: r.range })));
    }
  }
}
const GUIDE_WORDS = { jaw: "Open mouth", brow: "Raise eyebrows", cheek: "Puff cheeks", pucker: "Purse lips", turn: "Turn head", nod: "Nod", tilt: "Tilt head", smile: "Smile" };

// ---- Chord bar ----
function buildChords(state) {
  const box = $("chords");
  box.replaceChildren();
  for (const ch of state.chords) {
    const b = element("button", { type: "button", "aria-label": `Chord ${ch.numeral}, ${ch.name}`, testid: `chord-${ch.degree}`,
      "aria-pressed": String(ch.degree === state.chord), onclick: () => studio.action("hecate.chord", ch.degree) },
      element("span", { class: "numeral", text: ch.numeral }), element("span", { class: "name", text: ch.name }));
    box.append(b);
  }
}

// ---- State ----
function show() {
  const s = hecate.state;
  if (!s) return;
  $("key-indicator").textContent = s.key;
  for (const b of $("chords").children) b.setAttribute("aria-pressed", String(b.dataset.testid === `chord-${s.chord}`));
  bpmInput.value = String(Math.round(s.bpm));
  $("arp").setAttribute("aria-pressed", String(s.arpeggiator));
  $("mute").setAttribute("aria-pressed", String(s.muted));
  $("mute").textContent = s.muted ? "Muted" : "Mute";
  if (controls) {
    for (const k of ["key", "pack", "arpDivision", "tremolo", "tremoloDivision", "route"]) controls[k].querySelector("select").value = s[k];
    for (const k of ["tremoloDepth", "bassLevel", "droneLevel", "reverb"]) {
      const input = controls[k].querySelector("input");
      if (document.activeElement !== input) input.value = s[k];
    }
    controls.playAlong.querySelector("input").checked = s.playAlong;
    controls.ceiling.textContent = `${s.limiterCeiling} dBFS`;
    const pack = s.packs.find((p) => p.id === s.pack);
    controls.summary.textContent = pack ? `${pack.name}: ${pack.summary}` : "";
  }
  if (s.visual) immerse.setVisual(s.visual);
  learn.update(s.learn);
}
function applyState(state) {
  hecate.state = state;
  buildSettings(state);
  buildMeters(state);
  buildChords(state);
  faceShown(state.faceInView);
  show();
}
followActive(studio, "hecate", {
  state: applyState,
  changed: (changes) => {
    if (!hecate.state) return;
    Object.assign(hecate.state, changes);
    if (changes.chords) buildChords(hecate.state);
    show();
  },
});
studio.on("error", (m) => {
  const s = $("connection");
  s.title = `${m.code}: ${m.message}`;
});

// ---- Frames: meters, tones, head, face, beat, Immerse ----
let faceWasSeen = false;
function faceShown(present) {
  const status = $("face-status");
  status.classList.toggle("found", present);
  status.classList.toggle("lost", !present && faceWasSeen);
  status.textContent = present ? "face found" : faceWasSeen ? "face lost" : "no face";
  status.dataset.face = present ? "found" : faceWasSeen ? "lost" : "waiting";
  $("waiting").hidden = present;
  if (present) faceWasSeen = true;
}
const degrees = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}°`;
studio.on("frame", (m) => {
  if (m.instrument !== "hecate") return;
  const f = m.frame;
  hecate.frame = f;
  hecate.frames++;
  faceShown(!!f.face);
  if (f.meters) {
    for (const [id, r] of Object.entries(f.meters)) {
      const v = meterViews[id];
      if (!v) continue;
      v.fill.style.width = `${(r.value * 100).toFixed(1)}%`;
      v.amount.textContent = r.amount.toFixed(2);
      v.row.dataset.value = r.value.toFixed(3);
      v.row.dataset.amount = r.amount.toFixed(3);
    }
  }
  if (f.head) {
    $("head-yaw").textContent = degrees(f.head.yaw);
    $("head-pitch").textContent = degrees(f.head.pitch);
    $("head-roll").textContent = degrees(f.head.roll);
  }
  if (f.tones) {
    for (const t of TONES) {
      const level = f.tones[t];
      toneColumns[t].col.style.height = `${Math.min(100, level * 100).toFixed(1)}%`;
      toneColumns[t].box.dataset.level = level.toFixed(3);
    }
    toneColumns.bass.col.style.height = `${Math.min(100, f.bass * 100).toFixed(1)}%`;
    toneColumns.bass.box.dataset.level = f.bass.toFixed(3);
  }
  if (f.beat) {
    steps.forEach((s, i) => s.classList.toggle("on", f.beat.arpeggiator && f.beat.step === i));
    $("beat").dataset.step = f.beat.arpeggiator ? String(f.beat.step) : "";
    // The pulse follows the tremolo's gain (brightest at the top of each cycle); with neither the tremolo
    // nor the arpeggiator, it flashes on the tempo's beat and fades over it, so the tempo is always seen.
    const showsTempo = !f.beat.tremolo && !f.beat.arpeggiator;
    pulse.style.opacity = f.beat.tremolo ? (0.2 + 0.8 * (0.5 + 0.5 * Math.cos(2 * Math.PI * f.beat.phase))).toFixed(2)
      : showsTempo ? (0.15 + 0.85 * (1 - f.beat.beatPhase) ** 3).toFixed(2) : "0.15";
    $("beat").dataset.shows = f.beat.tremolo ? "tremolo" : f.beat.arpeggiator ? "arpeggiator" : "tempo";
  }
  if (f.engine) {
    const ch = hecate.state?.chords?.find((c) => c.degree === f.engine.chord);
    $("engine-chord").textContent = `${f.engine.key} ${ch ? `${ch.numeral} ${ch.name}` : f.engine.chord}`;
    $("engine-chord").dataset.chord = String(f.engine.chord);
    $("engine-chord").dataset.key = f.engine.key;
    const db = f.engine.rms > 0 ? 20 * Math.log10(f.engine.rms) : -Infinity;
    $("engine-rms").textContent = Number.isFinite(db) ? `${db.toFixed(1)} dBFS RMS` : "silent";
  }
  if (f.viz) immerse.update(f.viz);
});

// First run: the mapping guide.
let seen = false;
try { seen = localStorage.getItem(GUIDE_SEEN) === "1"; } catch { /* storage off: show it */ }
if (!seen && params.get("guide") !== "0") openGuide();
faceShown(false);
studio.connect();
