// The rack's 25-key keyboard (MIDI 12·octave … 12·(octave+2), spec §3): pointer multi-touch (each
// pointer holds one note and can slide to the next key), the computer keyboard as keys, and highlights
// for notes the song player or MIDI plays ("external"). Notes go out as `note.on` / `note.off` actions;
// the server ends a page's notes when its socket is lost.

const BLACK = new Set([1, 3, 6, 8, 10]);
import { noteName } from "/js/notes.js";
export { noteName };
/** Computer keys → semitones above the keyboard's lowest C (a piano layout on the home row). */
export const COMPUTER_KEYS = {
  KeyA: 0, KeyW: 1, KeyS: 2, KeyE: 3, KeyD: 4, KeyF: 5, KeyT: 6, KeyG: 7, KeyY: 8, KeyH: 9, KeyU: 10, KeyJ: 11,
  KeyK: 12, KeyO: 13, KeyL: 14, KeyP: 15, Semicolon: 16, Quote: 17,
};

export class Keyboard {
  /** `noteOn(n)`, `noteOff(n)` send to the server; `octaveStep(±1)` asks for another octave. */
  constructor(container, { noteOn, noteOff, octaveStep }) {
    this.container = container;
    this.noteOn = noteOn;
    this.noteOff = noteOff;
    this.octaveStep = octaveStep;
    this.octave = 4;
    this.pointers = new Map();   // pointerId → note
    this.keys = new Map();       // KeyboardEvent.code → note
    this.external = new Set();
    this.build();
    container.addEventListener("pointerdown", (e) => this.pointerDown(e));
    container.addEventListener("pointermove", (e) => this.pointerMove(e));
    for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) container.addEventListener(type, (e) => this.pointerUp(e));
    window.addEventListener("keydown", (e) => this.keyDown(e));
    window.addEventListener("keyup", (e) => this.keyUp(e));
    window.addEventListener("blur", () => this.releaseAll());
  }

  get low() { return 12 * this.octave; }

  build() {
    this.container.replaceChildren();
    this.elements = [];
    for (let i = 0; i < 25; i++) {
      const note = this.low + i;
      const key = document.createElement("div");
      key.className = `hs-key ${BLACK.has(note % 12) ? "black" : "white"}`;
      key.dataset.testid = `hisynth-key-${i}`;
      key.dataset.note = String(note);
      key.setAttribute("role", "button");
      key.setAttribute("aria-label", `Key ${noteName(note)}`);
      key.textContent = note % 12 === 0 ? noteName(note) : "";
      this.container.append(key);
      this.elements.push(key);
    }
    this.highlight();
  }

  setOctave(octave) {
    if (octave === this.octave) return;
    this.releaseAll();
    this.octave = octave;
    this.build();
  }

  /** Notes sounding in the engine that this page does not hold: player, MIDI, other pages. */
  setExternal(held) {
    const mine = this.held();
    this.external = new Set(held.filter((n) => !mine.has(n)));
    this.highlight();
  }

  held() { return new Set([...this.pointers.values(), ...this.keys.values()]); }

  highlight() {
    const mine = this.held();
    for (const key of this.elements) {
      const n = Number(key.dataset.note);
      key.classList.toggle("down", mine.has(n));
      key.classList.toggle("external", this.external.has(n));
    }
  }

  press(note) {
    const before = this.held();
    if (!before.has(note)) this.noteOn(note);
  }

  lift(note) {
    if (!this.held().has(note)) this.noteOff(note);
  }

  noteAt(x, y) {
    const target = document.elementFromPoint(x, y);
    return target && target.classList?.contains("hs-key") ? Number(target.dataset.note) : null;
  }

  pointerDown(e) {
    const note = this.noteAt(e.clientX, e.clientY);
    if (note === null) return;
    e.preventDefault();
    try { this.container.setPointerCapture(e.pointerId); } catch { /* synthetic pointers */ }
    this.press(note);
    this.pointers.set(e.pointerId, note);
    this.highlight();
  }

  pointerMove(e) {
    if (!this.pointers.has(e.pointerId)) return;
    const note = this.noteAt(e.clientX, e.clientY);
    const old = this.pointers.get(e.pointerId);
    if (note === null || note === old) return;
    // Slide: the new key first, then the old one lets go (no gap).
    this.press(note);
    this.pointers.set(e.pointerId, note);
    this.lift(old);
    this.highlight();
  }

  pointerUp(e) {
    if (!this.pointers.has(e.pointerId)) return;
    const note = this.pointers.get(e.pointerId);
    this.pointers.delete(e.pointerId);
    this.lift(note);
    this.highlight();
  }

  keyDown(e) {
    if (e.metaKey || e.ctrlKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" && t.type !== "range" && t.type !== "checkbox" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (e.code === "KeyZ" || e.code === "KeyX") { if (!e.repeat) this.octaveStep(e.code === "KeyZ" ? -1 : 1); e.preventDefault(); return; }
    const offset = COMPUTER_KEYS[e.code];
    if (offset === undefined) return;
    e.preventDefault();
    if (e.repeat || this.keys.has(e.code)) return;
    const note = this.low + offset;
    this.press(note);
    this.keys.set(e.code, note);
    this.highlight();
  }

  keyUp(e) {
    if (!this.keys.has(e.code)) return;
    const note = this.keys.get(e.code);
    this.keys.delete(e.code);
    this.lift(note);
    this.highlight();
  }

  /** Every note this page holds ends (blur, a hidden page, an octave change). */
  releaseAll() {
    const notes = this.held();
    this.pointers.clear();
    this.keys.clear();
    for (const n of notes) this.noteOff(n);
    this.highlight();
  }
}
