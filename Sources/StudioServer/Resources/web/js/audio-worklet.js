// The browser-audio player (AudioWorklet, docs/studio-protocol.md "Browser audio"): a stereo ring of
// PCM blocks from the server, played on the browser's audio clock (the master).
// - Jitter buffer: playback starts when the fill reaches the target (40 ms by default) and the server
//   steers its render rate on the smoothed fill the player reports, so the fill stays near the target.
// - Underrun: the output goes silent, a dropout is counted, and playback resumes once the target is
//   buffered again, fading in over 1 ms (no click).
// - Overflow: when the smoothed fill stays above the maximum (80 ms), or any burst (a stalled connection
//   delivering at once) passes the hard limit (150 ms), the oldest samples are dropped back to the target,
//   so the latency never grows. A burst after a short gap is kept: the gap already used up the buffer.
// Messages in: {left: Float32Array, right: Float32Array}, {reset: true}. Out (every ~100 ms):
// {fill, smoothed, target, dropouts, overflows, playing} in frames.

class PCMPlayer extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const o = options.processorOptions ?? {};
    this.capacity = Math.round(sampleRate);  // one second
    this.left = new Float32Array(this.capacity);
    this.right = new Float32Array(this.capacity);
    this.read = 0;
    this.fill = 0;
    this.target = Math.round(((o.targetMs ?? 40) / 1000) * sampleRate);
    this.maximum = Math.round(((o.maximumMs ?? 80) / 1000) * sampleRate);
    this.hardMaximum = Math.round(((o.hardMaximumMs ?? 150) / 1000) * sampleRate);
    this.fadeStep = 1 / Math.max(1, Math.round(0.001 * sampleRate));  // 1 ms fade-in
    this.gain = 0;
    this.playing = false;
    this.dropouts = 0;
    this.overflows = 0;
    this.smoothed = 0;
    this.smoothedValid = false;
    this.alpha = 1 - Math.exp(-128 / (0.5 * sampleRate));  // 0.5 s time constant per render quantum
    this.sinceReport = 0;
    this.port.onmessage = (event) => this.receive(event.data);
  }

  receive(data) {
    if (data.reset) { this.fill = 0; this.playing = false; this.smoothedValid = false; return; }
    const { left, right } = data;
    const n = Math.min(left.length, right.length, this.capacity);
    let write = (this.read + this.fill) % this.capacity;
    for (let i = 0; i < n; i++) {
      this.left[write] = left[i];
      this.right[write] = right[i];
      write = write + 1 === this.capacity ? 0 : write + 1;
    }
    this.fill = Math.min(this.capacity, this.fill + n);
    if (this.fill > this.hardMaximum || (this.smoothedValid && this.smoothed > this.maximum && this.fill > this.target)) {
      const drop = this.fill - this.target;
      this.read = (this.read + drop) % this.capacity;
      this.fill -= drop;
      this.overflows++;
      this.smoothed = this.fill;
    }
  }

  process(inputs, outputs) {
    const out = outputs[0];
    const l = out[0], r = out[1] ?? out[0];
    const n = l.length;
    if (!this.playing && this.fill >= this.target) { this.playing = true; this.gain = 0; }
    if (this.playing) {
      for (let i = 0; i < n; i++) {
        if (this.fill === 0) {
          // Underrun: silence until the target is buffered again, then a 1 ms fade-in.
          this.playing = false;
          this.dropouts++;
          for (let j = i; j < n; j++) { l[j] = 0; r[j] = 0; }
          break;
        }
        if (this.gain < 1) this.gain = Math.min(1, this.gain + this.fadeStep);
        l[i] = this.left[this.read] * this.gain;
        r[i] = this.right[this.read] * this.gain;
        this.read = this.read + 1 === this.capacity ? 0 : this.read + 1;
        this.fill--;
      }
      if (!this.smoothedValid) { this.smoothed = this.fill; this.smoothedValid = true; }
      this.smoothed += (this.fill - this.smoothed) * this.alpha;
    }
    this.sinceReport += n;
    if (this.sinceReport >= sampleRate / 10) {
      this.sinceReport = 0;
      this.port.postMessage({ fill: this.fill, smoothed: this.smoothed, target: this.target, dropouts: this.dropouts,
        overflows: this.overflows, playing: this.playing });
    }
    return true;
  }
}

registerProcessor("prospero-pcm-player", PCMPlayer);
