// The games' pages (/games/harmony/, /games/vibe/, /games/touch/): the model runs in the server
// (Sources/Studio/Games); this page sends the finger as `touch` messages, draws the model's frames (the
// circle and its states, the pulsing circle that follows the finger), shows the home button when the
// model says so, and plays the haptic bursts (haptics.js).
import { StudioConnection } from "/js/studio.js";
import { SessionClock, HapticPlayer } from "/games/haptics.js";

const game = document.body.dataset.game;
const studio = new StudioConnection({ subscribe: ["state", "frames"] });
window.studio = studio;   // for tests and the console
const clock = new SessionClock(studio);
const player = new HapticPlayer({ clock, indicator: document.getElementById("haptic") });
window.games = { clock, player };

const stage = document.getElementById("stage");
const circle = document.getElementById("circle");
const follower = document.getElementById("follower");
const readout = document.getElementById("readout");
const home = document.getElementById("home");
const startSheet = document.getElementById("start");
const instructions = document.getElementById("instructions");
const marks = document.getElementById("marks");

document.getElementById("haptic-note").textContent = typeof navigator.vibrate === "function"
  ? "This device vibrates with the music."
  : "No vibration here (iPhone: the taps tick; everywhere: the ring below shows what you would feel).";

let started = false;
let wasActive = false;   // this game was the active instrument since the start
let frame = {};
let finger = null;
let lastPhrases = 0;
let lastCircleKey = null;
let pendingExport = null;

const position = (e) => {
  const r = stage.getBoundingClientRect();
  return [Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (e.clientY - r.top) / r.height))];
};

function start() {
  started = true;
  startSheet.hidden = true;
  player.unlock();
  studio.select(game);   // one active instrument for all pages: this game, from now on
  const r = stage.getBoundingClientRect();
  studio.action(`${game}.start`, r.height > 0 ? Math.min(10, Math.max(0.1, r.width / r.height)) : null);
  setTimeout(() => instructions.classList.add("faded"), 4000);
}
document.getElementById("start-button").addEventListener("click", start);

// The finger: the first pointer plays (the model listens to one finger); up, cancel, a lost capture and
// a hidden page end it.
stage.addEventListener("pointerdown", (e) => {
  if (!started || finger !== null) return;
  finger = e.pointerId;
  try { stage.setPointerCapture(e.pointerId); } catch { /* synthetic pointers */ }
  const [x, y] = position(e);
  studio.touch(0, "down", x, y, e.pressure || 1);
  placeFollower(x, y);
  if (game === "harmony") markTap(x, y);
  home.hidden = true;
});
stage.addEventListener("pointermove", (e) => {
  if (e.pointerId !== finger) return;
  const [x, y] = position(e);
  studio.touch(0, "move", x, y, e.pressure || 1);
  placeFollower(x, y);
});
const end = (phase) => (e) => {
  if (e.pointerId !== finger) return;
  const [x, y] = position(e);
  studio.touch(0, phase, x, y, 0);
  finger = null;
};
stage.addEventListener("pointerup", end("up"));
stage.addEventListener("pointercancel", end("cancel"));
stage.addEventListener("lostpointercapture", end("cancel"));
studio.on("hidden", () => { if (finger !== null) { studio.touch(0, "cancel", 0, 0, 0); finger = null; } });
// A tap on a switch would also toggle it; the game does not care about its value.
for (const s of document.querySelectorAll("input.tick")) s.addEventListener("click", (e) => e.stopPropagation());

function placeFollower(x, y) {
  if (game === "harmony") return;
  follower.hidden = false;
  follower.style.left = `${x * 100}%`;
  follower.style.top = `${y * 100}%`;
}

/** Where a Harmony tap landed: green when the circle was there, red when it was missed. */
function markTap(x, y) {
  const c = frame.circle;
  let inside = false;
  if (c) {
    const r = stage.getBoundingClientRect();
    const dx = (x - c.x) * r.width, dy = (y - c.y) * r.height;
    inside = Math.hypot(dx, dy) <= c.r * r.width;
  }
  const m = document.createElement("span");
  m.className = inside ? "mark hit" : "mark";
  m.dataset.testid = inside ? "mark-hit" : "mark-miss";
  m.style.left = `${x * 100}%`;
  m.style.top = `${y * 100}%`;
  marks.append(m);
  setTimeout(() => m.remove(), 800);
}

function drawHarmony(f) {
  const c = f.circle;
  if (typeof f.phrases === "number" && f.phrases > lastPhrases) {
    lastPhrases = f.phrases;
    circle.classList.add("hit");
    circle.dataset.state = "hit";
  }
  const key = c ? `${c.x},${c.y}` : null;
  if (key !== lastCircleKey) {
    lastCircleKey = key;
    if (c) {
      const r = stage.getBoundingClientRect();
      const size = 2 * c.r * r.width;
      circle.hidden = false;
      circle.classList.remove("hit", "shown");
      circle.style.left = `${c.x * 100}%`;
      circle.style.top = `${c.y * 100}%`;
      circle.style.width = circle.style.height = `${size}px`;
      circle.dataset.x = String(c.x);
      circle.dataset.y = String(c.y);
      circle.dataset.r = String(c.r);
      circle.dataset.state = "shown";
      requestAnimationFrame(() => circle.classList.add("shown"));
    } else {
      circle.classList.remove("shown");
      if (circle.dataset.state !== "hit") circle.dataset.state = "gone";
      setTimeout(() => { if (!lastCircleKey) circle.hidden = true; }, 400);
    }
  }
  readout.textContent = `phrases ${f.phrases ?? 0} · group ${(f.group ?? 0) + 1}`;
  readout.dataset.phrases = String(f.phrases ?? 0);
}

function drawVibe(f) {
  // No-break spaces: a reading never wraps inside itself on a narrow phone.
  readout.textContent = `rate\u00a0${Number(f.frequency).toFixed(2)}\u00a0Hz · depth\u00a0${Math.round(100 * f.depth)}\u00a0%`;
  readout.dataset.frequency = String(f.frequency);
  readout.dataset.depth = String(f.depth);
}

function drawTouch(f) {
  const c = f.circle;
  if (c && c.opacity > 0) {
    if (finger === null) { follower.style.left = `${c.x * 100}%`; follower.style.top = `${c.y * 100}%`; }
    follower.hidden = false;
    follower.style.opacity = String(c.opacity);
    follower.dataset.scale = String(c.scale);
  }
  readout.textContent = `volume\u00a0${Math.round(100 * f.volume)}\u00a0%`;
  readout.dataset.volume = String(f.volume);
}

// The pulse: Touch's scale comes from the model's animation; Vibe's circle beats at the tremolo's rate and depth.
function animate() {
  const t = performance.now() / 1000;
  if (game === "vibe" && typeof frame.frequency === "number") {
    const s = 1 + 0.35 * frame.depth * Math.sin(2 * Math.PI * frame.frequency * t);
    follower.style.transform = `scale(${s.toFixed(3)})`;
    if (finger === null && follower.hidden === false) follower.style.opacity = "0.6";
    else follower.style.opacity = "1";
  } else if (game === "touch") {
    const base = Number(follower.dataset.scale ?? 1);
    const breathe = 1 + 0.04 * Math.sin(2 * Math.PI * 1.2 * t) * (frame.volume ?? 0.5);
    follower.style.transform = `scale(${(base * breathe).toFixed(3)})`;
  }
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);

studio.on("welcome", () => clock.start());
studio.on("state", (m) => {
  if (m.instrument !== game) {
    // Another page chose another instrument: this game waits for a new tap to start.
    if (started && wasActive) { started = false; wasActive = false; startSheet.hidden = false; }
    return;
  }
  // This game just became the active instrument: its clock answers from now on.
  if (started && !wasActive) clock.restart();
  wasActive = started;
  if (m.state.instructions) instructions.textContent = m.state.instructions;
  home.hidden = !m.state.home;
});
studio.on("changed", (m) => {
  if (m.instrument !== game) return;
  const c = m.changes;
  if (c.haptic) player.play(c.haptic);
  if (typeof c.home === "boolean") home.hidden = !c.home;
  if (c.export && pendingExport === c.export.format) {
    pendingExport = null;
    download(c.export);
  }
});
studio.on("frame", (m) => {
  if (m.instrument !== game) return;
  frame = m.frame;
  if (typeof frame.home === "boolean") home.hidden = !frame.home;
  if (game === "harmony") drawHarmony(frame);
  else if (game === "vibe") drawVibe(frame);
  else drawTouch(frame);
});

// The home button leaves the game (the music fades out) and returns to the games menu on Home.
home.addEventListener("click", () => { studio.action(`${game}.leave`); });

// Downloads: the server renders the session's haptic track (AHAP, Android waveform); the page saves it as a Blob.
function requestExport(format) {
  pendingExport = format;
  studio.action(`${game}.export`, format);
}
function download({ name, text, format }) {
  const blob = new Blob([text], { type: format === "ahap" ? "application/json" : "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  window.games.lastExport = { name, text, format };
}
document.getElementById("export-ahap").addEventListener("click", () => requestExport("ahap"));
document.getElementById("export-android").addEventListener("click", () => requestExport("android"));

studio.connect();
