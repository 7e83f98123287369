// The seven-step walkthrough of spec §3: a welcome window (Close / Start the Tutorial), then a popover
// per panel on its "?" button with a title, text, OK and Next (no Next on the last, Rack); Next scrolls
// to the next panel and opens its step. The HiSynth logo reopens the welcome window.
import { drawADSR } from "/hisynth/views.js";

export const STEPS = [
  { panel: "osc", title: "Oscillator",
    text: "Two oscillator layers sound every note. Each has five waves — sine, saw, square, triangle and pulse — a level, and a pitch in semitones (±12)." },
  { panel: "env", title: "Envelope Generator",
    text: "The envelope shapes each note's loudness: <b>Attack</b> rises to full, <b>Decay</b> falls to the <b>Sustain</b> level while the key is held, <b>Release</b> fades out after it is let go.", adsr: true },
  { panel: "filter", title: "Filters",
    text: "The low-pass filter makes the sound darker, the high-pass brighter. Positive resonance gives a “wah” peak at the cutoff; negative smooths it. The curve is the filters' real response over the live spectrum." },
  { panel: "lfo", title: "Low Frequency Oscillators (LFO)",
    text: "Three LFOs from 0.25 to 20 Hz, each with a waveform, depth, rate and phase, modulate pitch, amplitude and the two cutoffs — tick them in the matrix, and combine several on one target." },
  { panel: "fx", title: "Audio Effects",
    text: "Four effects in a fixed order: decimator, drive, delay and reverb, each with its switch and its mix." },
  { panel: "presets", title: "Presets",
    text: "Factory presets in five families — Key, Lead, Pad, Pluck and FX. Save your own, import a pasted preset string, or copy the current sound's string to share it." },
  { panel: "rack", title: "Rack",
    text: "The oscilloscope and the piano roll show what plays; the song player plays songs through the synth; ◀ ▶ move the keyboard's octave. That is the end of the tutorial — enjoy!" },
];

export class Walkthrough {
  constructor({ welcome, step, envelope }) {
    this.welcome = welcome;
    this.step = step;
    this.envelope = envelope;   // () => {attack, decay, sustain, release} for the ADSR diagram
    this.index = -1;
    this.title = step.querySelector("#step-title");
    this.text = step.querySelector("#step-text");
    this.adsr = step.querySelector("#step-adsr");
    this.next = step.querySelector("#step-next");
    welcome.querySelector("#welcome-close").addEventListener("click", () => this.closeWelcome());
    welcome.querySelector("#welcome-start").addEventListener("click", () => { this.closeWelcome(); this.open(0); });
    step.querySelector("#step-ok").addEventListener("click", () => this.close());
    this.next.addEventListener("click", () => this.open(this.index + 1));
    window.addEventListener("keydown", (e) => { if (e.key === "Escape" && !this.step.hidden) this.close(); });
    window.addEventListener("resize", () => this.place());
  }

  showWelcome() {
    this.close();
    if (!this.welcome.open) this.welcome.showModal();
  }

  closeWelcome() { if (this.welcome.open) this.welcome.close(); }

  /** Opens step `i` (0…6) from its panel's "?" button. */
  open(i) {
    if (i < 0 || i >= STEPS.length) { this.close(); return; }
    this.index = i;
    const s = STEPS[i];
    this.title.textContent = `${i + 1}. ${s.title}`;
    this.text.innerHTML = `<p>${s.text}</p>`;
    this.next.hidden = i === STEPS.length - 1;
    this.step.dataset.index = String(i);
    this.step.hidden = false;
    this.adsr.hidden = !s.adsr;
    if (s.adsr) drawADSR(this.adsr, this.envelope());
    const panel = document.getElementById(`panel-${s.panel}`);
    panel.scrollIntoView({ block: "nearest", behavior: "instant" });
    this.place();
  }

  place() {
    if (this.step.hidden || this.index < 0) return;
    const anchor = document.querySelector(`[data-testid="hisynth-help-${STEPS[this.index].panel}"]`);
    const r = anchor.getBoundingClientRect();
    const width = Math.min(400, window.innerWidth - 16);
    this.step.style.width = `${width}px`;
    this.step.style.left = `${Math.max(8, Math.min(window.innerWidth - width - 8, r.right - width))}px`;
    // The bottom edge the popover may reach: above the browser-audio bar when it shows.
    const bar = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--audio-bar-space")) || 0;
    const bottom = window.innerHeight - bar;
    const below = r.bottom + 8;
    const height = this.step.offsetHeight;
    this.step.style.top = `${below + height < bottom ? below : Math.max(8, Math.min(r.top - height - 8, bottom - height - 8))}px`;
  }

  close() {
    this.step.hidden = true;
    this.index = -1;
  }
}
