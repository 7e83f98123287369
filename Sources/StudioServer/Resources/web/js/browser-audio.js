// Browser audio on every page (docs/studio-protocol.md "Browser audio"): a small indicator with a
// "Listen" control (audio needs a user gesture), an AudioWorklet player fed with the server's 0x10 PCM
// frames, and the report that lets the server follow this page's audio clock:
//   {"type":"audio","fill":ms,"target":ms,"latency":ms,"dropouts":n} twice a second (the server's steering has a
//   40 s time constant: more reports would steer no better, and each one wakes the server).
// studio.js attaches it when the server's audio backend is "browser". Its timers (the reports, the arrival gaps, a
// test's stall) run on the page's clock (js/clock.js), which a test can replace. For tests and the console:
// window.prosperoAudio = {context, node, analyser, stats(), stallForTest(ms)}.

import { pageClock } from "/js/clock.js";
import { element } from "/js/ui.js";

export const TARGET_MS = 40;
export const MAXIMUM_MS = 80;
export const HARD_MAXIMUM_MS = 150;
export const REPORT_MS = 500;

let attached = null;

/** Shows the indicator for `studio` (a StudioConnection); once per page. */
export function attachBrowserAudio(studio, audio) {
  if (attached) { attached.update(audio); return attached; }
  attached = new BrowserAudio(studio);
  attached.update(audio);
  return attached;
}

export class BrowserAudio {
  /** `clock`: the page's clock (js/clock.js's `pageClock`, or a test's). */
  constructor(studio, clock = pageClock) {
    this.studio = studio;
    this.clock = clock;
    this.context = null;
    this.node = null;
    this.analyser = null;
    this.player = { fill: 0, smoothed: 0, target: 0, dropouts: 0, overflows: 0, playing: false };
    this.frames = 0;
    this.lost = 0;
    this.lastSequence = null;
    this.lastArrival = null;
    this.maxGapMs = 0;
    this.held = null;
    this.rate = 48000;
    this.box = element("div", { id: "browser-audio", class: "browser-audio", role: "status", testid: "audio-indicator" });
    this.text = element("span", { class: "browser-audio-text", testid: "audio-indicator-text", text: "Browser audio" });
    this.listen = element("button", { type: "button", "aria-label": "Tap to listen: play the studio's sound in this browser",
      "data-testid": "audio-listen", text: "▶ Tap to listen" });
    this.listen.addEventListener("click", () => this.start());
    this.box.append(this.listen, this.text);
    document.body.appendChild(this.box);
    // The page keeps the bar's height free at its bottom (--audio-bar-space, css/audio-bar.css), so that the
    // bar never lies over a control.
    new ResizeObserver(() => this.reserve()).observe(this.box);
    if (!window.isSecureContext) {
      this.listen.disabled = true;
      this.text.textContent = "Browser audio needs a secure page: open it on localhost, or start the studio with --tls (https)";
      this.text.dataset.insecure = "true";
    }
    studio.on("pcm", (view) => this.receive(view));
    studio.on("welcome", () => { this.lastSequence = null; });
    window.prosperoAudio = this;
  }

  update(audio) {
    this.box.hidden = !audio || audio.backend !== "browser";
    if (audio?.rate) this.rate = audio.rate;
    this.reserve();
  }

  reserve() {
    const space = this.box.hidden ? 0 : Math.ceil(this.box.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--audio-bar-space", `${space}px`);
    document.documentElement.classList.toggle("has-audio-bar", space > 0);
  }

  async start() {
    if (this.context || !window.isSecureContext) return;
    this.listen.disabled = true;
    try {
      this.context = new AudioContext({ sampleRate: this.rate, latencyHint: "interactive" });
      await this.context.audioWorklet.addModule("/js/audio-worklet.js");
      this.node = new AudioWorkletNode(this.context, "prospero-pcm-player", {
        numberOfInputs: 0, outputChannelCount: [2], processorOptions: { targetMs: TARGET_MS, maximumMs: MAXIMUM_MS, hardMaximumMs: HARD_MAXIMUM_MS },
      });
      this.node.port.onmessage = (event) => { this.player = event.data; this.show(); };
      this.analyser = this.context.createAnalyser();
      this.analyser.fftSize = 2048;
      this.node.connect(this.analyser);
      this.analyser.connect(this.context.destination);
      await this.context.resume();
      // Subscribe to the audio stream now (and after every reconnect: studio.js sends this list in hello).
      if (!this.studio.subscribe.includes("audio")) this.studio.subscribe = [...this.studio.subscribe, "audio"];
      if (this.studio.socket && this.studio.welcomed) {
        this.studio.socket.send(JSON.stringify({ type: "hello", client: this.studio.clientID, subscribe: this.studio.subscribe }));
      }
      this.reporter = this.clock.setInterval(() => this.report(), REPORT_MS);
      this.listen.hidden = true;
      this.show();
    } catch (e) {
      console.warn("studio: browser audio could not start", e);
      this.text.textContent = `Browser audio could not start: ${e.message ?? e}`;
      this.listen.disabled = false;
      this.context = null;
    }
  }

  receive(view) {
    if (!this.node || view.byteLength < 13) return;
    // The longest wait between frames (what the jitter buffer has to bridge), since the last reset.
    const now = this.clock.now();
    if (this.lastArrival !== null) this.maxGapMs = Math.max(this.maxGapMs, now - this.lastArrival);
    this.lastArrival = now;
    if (this.held) { this.held.push(view); return; }
    this.play(view);
  }

  play(view) {
    const sequence = view.getUint32(1, true);
    const channels = view.getUint16(9, true);
    const n = view.getUint16(11, true);
    if (channels !== 2 || view.byteLength !== 13 + 4 * n) return;
    if (this.lastSequence !== null && sequence !== ((this.lastSequence + 1) >>> 0)) this.lost += (sequence - this.lastSequence - 1) >>> 0;
    this.lastSequence = sequence;
    const left = new Float32Array(n), right = new Float32Array(n);
    for (let i = 0, o = 13; i < n; i++, o += 4) {
      left[i] = view.getInt16(o, true) / 32767;
      right[i] = view.getInt16(o + 2, true) / 32767;
    }
    this.frames++;
    this.node.port.postMessage({ left, right }, [left.buffer, right.buffer]);
  }

  /** Milliseconds from the server's render to this page's speaker: buffer fill + the context's latency. */
  get latencyMs() {
    if (!this.context) return 0;
    const device = (this.context.outputLatency || 0) + (this.context.baseLatency || 0);
    return (this.player.smoothed / this.context.sampleRate + device) * 1000;
  }

  get fillMs() { return this.context ? (this.player.smoothed / this.context.sampleRate) * 1000 : 0; }

  report() {
    // Only while connected: a stale report must not be queued and replayed.
    const socket = this.studio.socket;
    if (!this.context || !this.player.playing || !this.studio.welcomed || socket?.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "audio", fill: round(this.fillMs), target: TARGET_MS, latency: round(this.latencyMs),
      dropouts: this.player.dropouts }));
  }

  show() {
    if (!this.context) return;
    const p = this.player;
    this.text.textContent = `♪ ${p.playing ? "playing" : "buffering"} · latency ${Math.round(this.latencyMs)} ms · dropouts ${p.dropouts}`;
    this.box.dataset.dropouts = String(p.dropouts);
    this.box.dataset.latency = String(round(this.latencyMs));
  }

  /** Tests: holds incoming frames for `ms`, then delivers them at once (what a stalled connection does). */
  stallForTest(ms) {
    this.held = [];
    this.clock.setTimeout(() => { const held = this.held; this.held = null; for (const v of held) this.play(v); }, ms);
  }

  /** Tests: starts a new window for `maxGapMs`. */
  resetGapForTest() { this.maxGapMs = 0; }

  stats() {
    return { ...this.player, frames: this.frames, lost: this.lost, maxGapMs: this.maxGapMs, latencyMs: this.latencyMs, fillMs: this.fillMs,
      sampleRate: this.context?.sampleRate ?? 0, state: this.context?.state ?? "none" };
  }
}

function round(x) { return Math.round(x * 10) / 10; }
