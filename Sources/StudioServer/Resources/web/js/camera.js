// A page's own camera (Hecate's face, the Hands page's hands): "Use camera" opens the device's front
// camera (getUserMedia, facingMode "user"); while it is on, the page sends downscaled JPEG frames (at most
// 320×240, at most 30 a second) over the studio's WebSocket as binary messages, kind 0x20 for the face model
// and 0x21 for the hands model (docs/studio-protocol.md, "Page cameras"). The server tracks them with its
// camera bridge and what it finds plays the active instrument as any sender's does; it answers each frame
// with a `camera` message (landmarks, the bridge's state, drops, latency), which the page draws over the
// mirrored image. Frames never leave memory: no recording, no storage.
//
// When the studio runs its own camera (`prospero studio --camera`: the welcome's `info.camera` names it), the
// view shows that camera instead while this page's own is off: the page subscribes to `camera` and draws the
// preview frames the server sends (binary kind 0x22, at most 15 a second) with what the bridge tracks in them
// (`camera` messages with `"source":"studio"`); a page that does not show the view never subscribes.
//
// `PageCamera` does the camera, the frames, the clock and the latency readout, its pacing and pings on the page's
// clock (js/clock.js, which a test can replace); a page subclasses it for what it shows (`show(m)`: the readouts of one answer; `overlay(g, w, h)`: what it draws over the image, in the
// image's own coordinates, the mirroring done; `describe(m)`: the status line of a tracked frame).

import { pageClock } from "/js/clock.js";

export const MAX_WIDTH = 320;
export const MAX_HEIGHT = 240;
export const MAX_FPS = 30;
/** The server refuses larger frames (StudioCameraFrame.maximumJPEGBytes). */
export const MAX_JPEG_BYTES = 60 * 1024;
/** Binary message kinds: what the bridge tracks in the frame. */
export const FRAME_KINDS = { face: 0x20, hands: 0x21 };
const HEADER_BYTES = 17;
/** Past this many bytes waiting in the socket, a frame is skipped instead of sent. */
const MAX_BUFFERED = 256 * 1024;
/** The mirrored view's width at most (CSS scales it down further). */
const VIEW_WIDTH = 480;

/** Why this page cannot open a camera at all (nil when it can). */
export function cameraBlockedReason() {
  if (!window.isSecureContext) {
    return `The camera needs a secure page, and this one is plain HTTP from ${location.hostname}. Start the studio with HTTPS `
      + "(prospero studio --tls CERT.pem KEY.pem, e.g. made with mkcert) and open its https:// address, "
      + "or open http://localhost on the machine that runs the studio.";
  }
  if (!navigator.mediaDevices?.getUserMedia) return "This browser gives pages no camera (navigator.mediaDevices is missing).";
  return null;
}

/** A getUserMedia failure as a sentence a person can act on. */
export function cameraErrorMessage(error) {
  switch (error?.name) {
    case "NotAllowedError": case "SecurityError":
      return "Camera permission was denied. Allow the camera for this site in the browser's settings, then tap Use camera again.";
    case "NotFoundError": case "OverconstrainedError": case "DevicesNotFoundError":
      return "No camera was found on this device.";
    case "NotReadableError": case "TrackStartError":
      return "The camera could not start: another app may be using it.";
    default:
      return `The camera could not start: ${error?.message ?? error}`;
  }
}

export class PageCamera {
  /**
   * `els`: toggle (button), status, view (the section shown while the camera is on), canvas, latency.
   * `options`: model ("face" or "hands"), idle (the status before the first tap), toggleText (the button's
   * label while off), onClass (a class on <body> while on), clock (the page's clock: js/clock.js's `pageClock`, or a
   * test's).
   */
  constructor(studio, els, { model = "face", idle, toggleText = "Use camera", onClass = "camera-on", clock = pageClock } = {}) {
    this.studio = studio;
    this.time = clock;  // the page's clock: frame pacing, pings and their round trips
    this.els = els;
    this.model = model;
    this.kind = FRAME_KINDS[model];
    this.toggleText = toggleText;
    this.onClass = onClass;
    // The button's words (a `.label` inside it when it carries an icon too).
    this.label = els.toggle.querySelector(".label") ?? els.toggle;
    this.on = false;
    this.stream = null;
    this.video = document.createElement("video");
    this.video.muted = true;
    this.video.playsInline = true;
    this.grab = document.createElement("canvas");
    // A canvas read back for every frame: kept in memory (a GPU canvas's readback made each JPEG take ~1 s
    // in headless Chromium on SwiftShader).
    this.grabContext = this.grab.getContext("2d", { willReadFrequently: true });
    this.sequence = 0;
    this.busy = false;
    this.sent = 0;
    this.skipped = 0;
    this.last = null;
    this.clock = [];  // {rtt, offset}: server ms − page ms, from pong
    this.quality = 0.75;
    this.studioName = null;  // the studio's own camera, when it runs one
    this.previewImage = null;
    this.previews = 0;
    studio.on("welcome", (m) => this.studioCamera(m.info?.camera ?? null));
    studio.on("cameraPreview", (view) => this.preview(view));
    els.toggle.addEventListener("click", () => (this.on ? this.stop() : this.start()));
    studio.on("camera", (m) => this.received(m));
    studio.on("pong", (m) => this.pong(m));
    studio.on("error", (m) => { if (m.ref === "camera") this.status(`${m.message}`, "error"); });
    studio.on("hidden", () => { if (this.on) this.stop(); });
    const blocked = cameraBlockedReason();
    this.status(blocked ?? idle, blocked ? "blocked" : "off");
  }

  status(text, kind) {
    this.els.status.textContent = text;
    this.els.status.dataset.state = kind;
    this.state = kind;
  }

  async start() {
    const blocked = cameraBlockedReason();
    if (blocked) { this.status(blocked, "blocked"); return; }
    this.status("Opening the camera…", "opening");
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: "user", width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: MAX_FPS } }, audio: false });
    } catch (error) {
      this.status(cameraErrorMessage(error), "error");
      return;
    }
    this.video.srcObject = this.stream;
    try { await this.video.play(); } catch { /* muted inline video plays without a gesture */ }
    this.on = true;
    this.sent = 0;
    this.skipped = 0;
    this.last = null;
    document.body.classList.add(this.onClass);
    this.els.view.hidden = false;
    this.els.toggle.setAttribute("aria-pressed", "true");
    this.label.textContent = "Stop camera";
    this.status("Camera on: starting the tracker…", "starting");
    // The clock offset to the server (pong's `server`): a few quick pings, then one every 2 s.
    for (let i = 0; i < 5; i++) this.time.setTimeout(() => this.studio.ping(this.time.now()), 150 * i);
    this.pinger = this.time.setInterval(() => this.studio.ping(this.time.now()), 2000);
    this.tick();
    this.draw();
  }

  stop() {
    this.on = false;
    this.time.clearInterval(this.pinger);
    this.time.clearTimeout(this.timer);
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.video.srcObject = null;
    // A frame without an image: the server ends this page's face or hands at once.
    this.studio.sendBinary(this.header(0, 0, 0));
    document.body.classList.remove(this.onClass);
    this.els.view.hidden = !this.studioName;
    this.last = null;
    this.els.toggle.setAttribute("aria-pressed", "false");
    this.label.textContent = this.toggleText;
    this.status(this.studioName ? `Showing the studio's camera (${this.studioName}).` : "Camera off.", "off");
  }

  /** The studio runs its own camera (`name`), or none (null): watch it while this page's camera is off. */
  studioCamera(name) {
    this.studioName = name;
    this.studio.watch("camera", !!name);
    if (this.on) return;
    this.els.view.hidden = !name;
    if (name) this.status(`Showing the studio's camera (${name}).`, "studio");
  }

  /** A preview frame of the studio's camera: [0x22][UInt32 seq][UInt16 w][UInt16 h][JPEG]. */
  preview(view) {
    if (this.on || view.byteLength < 10) return;
    const blob = new Blob([new Uint8Array(view.buffer, view.byteOffset + 9, view.byteLength - 9)], { type: "image/jpeg" });
    createImageBitmap(blob).then((image) => {
      this.previewImage?.close();
      this.previewImage = image;
      this.previews++;
      this.els.canvas.dataset.previews = String(this.previews);
      if (!this.on) this.paint(image, image.width, image.height);
    }).catch(() => { /* a frame the browser cannot decode: the next one comes */ });
  }

  pong(m) {
    if (typeof m.t !== "number" || typeof m.server !== "number") return;
    const now = this.time.now(), rtt = now - m.t;
    this.clock.push({ rtt, offset: m.server - (m.t + rtt / 2) });
    if (this.clock.length > 8) this.clock.shift();
  }

  /** The server's clock now (ms) as the shortest round trip estimates it; 0 before any pong. */
  serverNow() {
    if (!this.clock.length) return 0;
    const best = this.clock.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    return this.time.now() + best.offset;
  }

  header(jpegBytes, width, height) {
    const buffer = new ArrayBuffer(HEADER_BYTES + jpegBytes);
    const view = new DataView(buffer);
    view.setUint8(0, this.kind);
    view.setUint32(1, this.sequence++ >>> 0, true);
    view.setFloat64(5, this.serverNow(), true);
    view.setUint16(13, width, true);
    view.setUint16(15, height, true);
    return buffer;
  }

  /** One frame every 1/30 s at most; none while the previous is still being encoded or the socket is backed up. */
  tick() {
    if (!this.on) return;
    this.timer = this.time.setTimeout(() => this.tick(), 1000 / MAX_FPS);
    const v = this.video;
    if (this.busy || !v.videoWidth || v.readyState < 2) return;
    if (!this.studio.connected || this.studio.bufferedAmount > MAX_BUFFERED) { this.skipped++; return; }
    const scale = Math.min(1, MAX_WIDTH / v.videoWidth, MAX_HEIGHT / v.videoHeight);
    const w = Math.max(1, Math.round(v.videoWidth * scale)), h = Math.max(1, Math.round(v.videoHeight * scale));
    this.grab.width = w;
    this.grab.height = h;
    this.grabContext.drawImage(v, 0, 0, w, h);
    this.busy = true;
    this.grab.toBlob(async (blob) => {
      try {
        if (!blob || !this.on) return;
        if (blob.size > MAX_JPEG_BYTES) { this.quality = Math.max(0.3, this.quality - 0.1); this.skipped++; return; }
        const jpeg = new Uint8Array(await blob.arrayBuffer());
        const buffer = this.header(jpeg.byteLength, w, h);
        new Uint8Array(buffer, HEADER_BYTES).set(jpeg);
        if (this.studio.sendBinary(buffer)) this.sent++; else this.skipped++;
      } finally { this.busy = false; }
    }, "image/jpeg", this.quality);
  }

  received(m) {
    if (m.source === "studio") { this.receivedStudio(m); return; }
    if (m.state === "unavailable" || m.state === "restarting") this.status(m.message ?? `camera bridge ${m.state}`, m.state);
    else if (m.state === "starting" && this.on) this.status("Starting the camera tracker…", "starting");
    this.accept(m);
    if (m.seq === undefined) return;
    this.last = m;
    if (!this.on) return;
    if (m.error) this.status(m.error, "error");
    else this.status(...this.describe(m));
    this.show(m);
    this.showLatency(m.stats ?? {});
  }

  /** What the bridge tracks in the studio's camera, shown while this page's own camera is off. */
  receivedStudio(m) {
    if (this.on) return;
    this.accept(m);
    if (m.seq === undefined) return;
    this.last = m;
    const [text, kind] = m.error ? [m.error, "error"] : this.describe(m);
    this.status(`Studio camera (${this.studioName ?? "this machine"}): ${text}`, kind === "error" ? "error" : "studio");
    this.show(m);
    this.showLatency(m.stats ?? {});
  }

  /** Anything of a message a page keeps before it is judged a frame's answer (Hecate: the contours). */
  accept(_m) {}

  /** [status text, state] for a tracked frame. */
  describe(_m) { return ["Tracking.", "tracking"]; }

  /** The page's readouts of one answer. */
  show(_m) {}

  /** Draws over the image (`g` already mirrored; w × h px the image's size). */
  overlay(_g, _w, _h) {}

  showLatency(s) {
    const l = s.latency, sl = s.serverLatency;
    const latency = this.els.latency;
    latency.textContent = l ? `latency ${l.median.toFixed(0)} ms median, ${l.p95.toFixed(0)} ms p95 (server ${sl ? sl.median.toFixed(0) : "—"} ms) · ${s.dropped} dropped`
      : `latency — · ${s.dropped ?? 0} dropped`;
    if (l) { latency.dataset.median = String(l.median); latency.dataset.p95 = String(l.p95); latency.dataset.count = String(l.count); }
    if (sl) { latency.dataset.serverMedian = String(sl.median); latency.dataset.serverP95 = String(sl.p95); }
    latency.dataset.dropped = String(s.dropped ?? 0);
  }

  /** The view: the camera image mirrored (a selfie), the page's overlay over it. */
  draw() {
    if (!this.on) return;
    requestAnimationFrame(() => this.draw());
    const v = this.video;
    if (!v.videoWidth) return;
    this.paint(v, v.videoWidth, v.videoHeight);
  }

  /** One picture (the camera's video, or the studio camera's preview) mirrored, the overlay over it. */
  paint(source, width, height) {
    const c = this.els.canvas;
    const scale = Math.min(1, VIEW_WIDTH / width);
    const w = Math.round(width * scale), h = Math.round(height * scale);
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const g = c.getContext("2d");
    g.save();
    g.translate(w, 0);
    g.scale(-1, 1);
    g.drawImage(source, 0, 0, w, h);
    this.overlay(g, w, h);
    g.restore();
    c.dataset.frames = String((Number(c.dataset.frames) || 0) + 1);
  }
}
