// The studio connection (protocol v1, docs/studio-protocol.md): one WebSocket at /ws, reconnecting
// every 500 ms, resuming its client id, replaying controls queued while offline; events for pages.
//
//   import { StudioConnection } from "/js/studio.js";
//   const studio = new StudioConnection({ subscribe: ["state", "status", "meters"] });
//   studio.on("state", (m) => …); studio.on("changed", (m) => …); studio.on("meters", (floats) => …);
//   studio.connect(); studio.set("hecate.key", "D");

export const PROTOCOL_VERSION = 1;
export const RECONNECT_MS = 500;
/** Controls kept while offline (the oldest go first past this). */
export const MAXIMUM_QUEUED = 64;
export const BINARY_KINDS = { 1: "meters", 2: "scope", 3: "spectrum", 16: "pcm", 34: "cameraPreview" };

export class StudioConnection {
  constructor({ subscribe = ["state", "status", "meters", "scope", "spectrum", "frames"], url = null, banner = true } = {}) {
    this.subscribe = subscribe;
    this.url = url ?? `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    this.clientID = null;
    this.socket = null;
    this.queue = [];
    this.listeners = new Map();
    this.connected = false;
    this.welcomed = false;
    this.stopped = false;
    this.lastWelcome = null;
    this.banner = banner ? ensureBanner() : null;
    document.addEventListener("visibilitychange", () => {
      // A hidden page ends its touches (the pad listens for this too).
      if (document.hidden) this.emit("hidden", null);
    });
  }

  /** `fn(payload)` for "welcome", "state", "changed", "frame", "status", "error", "pong", "camera", "meters",
   *  "scope", "spectrum", "pcm" (Float32Array / DataView), "connection" (true/false), "hidden". */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type).add(fn);
    return () => this.listeners.get(type).delete(fn);
  }

  emit(type, payload) {
    for (const fn of this.listeners.get(type) ?? []) {
      try { fn(payload); } catch (e) { console.warn(`studio: a ${type} listener failed`, e); }
    }
  }

  connect() {
    if (this.stopped) return;
    let socket;
    try { socket = new WebSocket(this.url); } catch { this.retry(); return; }
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.onopen = () => {
      this.connected = true;
      socket.send(JSON.stringify({ type: "hello", client: this.clientID, subscribe: this.subscribe }));
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = () => {
      const was = this.connected;
      this.connected = false;
      this.welcomed = false;
      this.socket = null;
      this.showBanner(true);
      if (was) this.emit("connection", false);
      this.retry();
    };
    socket.onerror = () => { /* onclose follows and retries */ };
  }

  /** Adds or removes one stream of this page's subscriptions (a second hello changes them at once). */
  watch(name, on) {
    const has = this.subscribe.includes(name);
    if (on === has) return;
    this.subscribe = on ? [...this.subscribe, name] : this.subscribe.filter((s) => s !== name);
    if (this.welcomed) this.socket?.send(JSON.stringify({ type: "hello", client: this.clientID, subscribe: this.subscribe }));
  }

  retry() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), RECONNECT_MS);
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.socket?.close();
  }

  receive(data) {
    if (data instanceof ArrayBuffer) {
      const view = new DataView(data);
      if (view.byteLength < 1) return;
      const kind = BINARY_KINDS[view.getUint8(0)];
      if (!kind) return;
      if (kind === "pcm") { this.emit("pcm", view); return; }
      if (kind === "cameraPreview") { this.emit(kind, view); return; }
      const n = (view.byteLength - 1) >> 2;
      const values = new Float32Array(n);
      for (let i = 0; i < n; i++) values[i] = view.getFloat32(1 + 4 * i, true);
      this.emit(kind, values);
      return;
    }
    let message;
    try { message = JSON.parse(data); } catch { console.warn("studio: a message that is not JSON"); return; }
    if (message.v !== PROTOCOL_VERSION) { console.warn(`studio: protocol v${message.v}, this page speaks v${PROTOCOL_VERSION}`); }
    if (message.type === "welcome") {
      this.clientID = message.client;
      this.welcomed = true;
      this.lastWelcome = message;
      this.showBanner(false);
      this.emit("connection", true);
      this.emit("welcome", message);
      // Browser audio: the Listen control and the latency/dropout indicator, on every page.
      if (message.audio?.backend === "browser" || this.browserAudio) {
        this.browserAudio ??= import("/js/browser-audio.js");
        this.browserAudio.then((m) => m.attachBrowserAudio(this, message.audio))
          .catch((e) => console.warn("studio: browser audio unavailable", e));
      }
      // Controls queued while offline, in order.
      const queued = this.queue.splice(0);
      for (const m of queued) this.socket.send(JSON.stringify(m));
      return;
    }
    if (message.type === "error") console.info(`studio: ${message.code}: ${message.message}${message.ref ? ` (${message.ref})` : ""}`);
    this.emit(message.type, message);
  }

  /** Sends now, or queues while offline (touches and pings are never queued: they would be stale). */
  send(message) {
    if (this.socket && this.welcomed && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    if (message.type === "touch" || message.type === "ping") return false;
    this.queue.push(message);
    if (this.queue.length > MAXIMUM_QUEUED) this.queue.shift();
    return false;
  }

  /** A binary message (a camera frame) now; false while offline (never queued: it would be stale). */
  sendBinary(buffer) {
    if (!this.socket || !this.welcomed || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(buffer);
    return true;
  }

  /** Bytes the socket has not sent yet (a sender of frames skips one past its limit). */
  get bufferedAmount() { return this.socket?.bufferedAmount ?? 0; }

  select(instrument) { return this.send({ type: "select", instrument }); }
  set(path, value) { return this.send({ type: "set", path, value }); }
  action(path, value = null) { return this.send({ type: "action", path, value }); }
  /** `measured` false: the device measured no force (`pressure` is a placeholder; the instrument plays its default). */
  touch(id, phase, x, y, pressure = 1, measured = true) {
    return this.send(measured ? { type: "touch", id, phase, x, y, pressure } : { type: "touch", id, phase, x, y, pressure, measured });
  }
  /** `t`: the asker's clock in ms (performance.now() unless it keeps its own), echoed by the `pong`. */
  ping(t = performance.now()) { return this.send({ type: "ping", t }); }

  showBanner(lost) {
    if (!this.banner) return;
    this.banner.hidden = !lost;
  }
}

function ensureBanner() {
  let banner = document.getElementById("connection-banner");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "connection-banner";
    banner.setAttribute("role", "status");
    banner.setAttribute("aria-live", "polite");
    banner.dataset.testid = "connection-banner";
    banner.textContent = "Server lost — reconnecting…";
    banner.hidden = true;
    document.body.appendChild(banner);
  }
  return banner;
}
