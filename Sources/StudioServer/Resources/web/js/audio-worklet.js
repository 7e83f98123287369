// The browser-audio player (AudioWorklet, docs/studio-protocol.md "Browser audio"): a stereo ring of
// PCM blocks from the server, played on the browser's audio clock (the master).
// - Jitter buffer: playback starts when the fill reaches the target (40 ms by default) and the server
//   steers its render rate on the smoothed fill the player reports, so the fill stays near the target.
// - Underrun: the output goes silent, a dropout is counted, and playback resumes once the target is
//   buffered again, fading in over 1 ms (no click).
// - Overflow: when the smoothed fill stays above the maximum (80 ms), or any burst (a stalled connection
//   delivering at once) passes the hard limit (150 ms), the oldest samples are dropped back to the target,
//   so the latency never grows. A burst after a short gap is kept: the gap already used up the buffer.
// - Drift: the server follows one page's clock (the first listener). Every other page's device clock runs a
//   little faster or slower (±0.01 % is common, 0.1 % happens), so its fill would creep to an underrun or an
//   overflow every few minutes. When the smoothed fill leaves the target's ±10 ms band, this player plays
//   slightly faster or slower (rate 1 + 0.5/s × the error beyond the band, at most ±0.5 %, 4-point Hermite
//   interpolation), which holds the fill near the band's edge; inside the band it copies samples unchanged.
// Messages in: {left: Float32Array, right: Float32Array}, {reset: true}. Out (every ~100 ms):
// {fill, smoothed, target, dropouts, overflows, playing, ratio} in frames (ratio: the drift correction, 1 = none).

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
    // Drift correction: samples read per output sample (1 = none), the fractional read position (0 ≤ phase < 1).
    this.ratio = 1;
    this.phase = 0;
    this.band = Math.round(0.010 * sampleRate);
    this.correctionGain = 0.5;   // per second: 1 ms beyond the band → 0.05 % faster or slower
    this.maximumRatio = 0.005;
    this.quantum = 128;
    this.port.onmessage = (event) => this.receive(event.data);
  }

  receive(data) {
    if (data.reset) { this.fill = 0; this.phase = 0; this.ratio = 1; this.playing = false; this.smoothedValid = false; return; }
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
    this.quantum = n;
    if (!this.playing && this.fill >= this.target) { this.playing = true; this.gain = 0; }
    if (this.playing) {
      if (this.ratio === 1 && this.phase === 0) this.copy(l, r, n); else this.resample(l, r, n, this.ratio);
      if (!this.smoothedValid) { this.smoothed = this.fill; this.smoothedValid = true; }
      this.smoothed += (this.fill - this.smoothed) * this.alpha;
      this.correct();
    }
    this.sinceReport += n;
    if (this.sinceReport >= sampleRate / 10) {
      this.sinceReport = 0;
      this.port.postMessage({ fill: this.fill, smoothed: this.smoothed, target: this.target, dropouts: this.dropouts,
        overflows: this.overflows, playing: this.playing, ratio: this.ratio });
    }
    return true;
  }

  /** Underrun at output sample `i`: silence to the end of the quantum, counted; playback resumes at the target. */
  underrun(l, r, i, n) {
    this.playing = false;
    this.dropouts++;
    for (let j = i; j < n; j++) { l[j] = 0; r[j] = 0; }
  }

  /** The samples as they came (the usual case: no correction). */
  copy(l, r, n) {
    for (let i = 0; i < n; i++) {
      if (this.fill === 0) { this.underrun(l, r, i, n); return; }
      if (this.gain < 1) this.gain = Math.min(1, this.gain + this.fadeStep);
      l[i] = this.left[this.read] * this.gain;
      r[i] = this.right[this.read] * this.gain;
      this.read = this.read + 1 === this.capacity ? 0 : this.read + 1;
      this.fill--;
    }
  }

  /** `step` samples read per output sample, between samples by 4-point Hermite (x₋₁, x₀, x₁, x₂ around the
   *  read position; x₋₁ is the sample played just before, still in the ring). */
  resample(l, r, n, step) {
    const c = this.capacity;
    for (let i = 0; i < n; i++) {
      if (this.fill < 3) { this.underrun(l, r, i, n); return; }
      if (this.gain < 1) this.gain = Math.min(1, this.gain + this.fadeStep);
      const i0 = this.read, im = i0 === 0 ? c - 1 : i0 - 1, i1 = i0 + 1 === c ? 0 : i0 + 1, i2 = i1 + 1 === c ? 0 : i1 + 1;
      const t = this.phase;
      l[i] = hermite(this.left[im], this.left[i0], this.left[i1], this.left[i2], t) * this.gain;
      r[i] = hermite(this.right[im], this.right[i0], this.right[i1], this.right[i2], t) * this.gain;
      this.phase += step;
      while (this.phase >= 1) {
        this.phase -= 1;
        this.read = this.read + 1 === c ? 0 : this.read + 1;
        this.fill--;
      }
    }
  }

  /** The drift correction for the next quantum, from the smoothed fill's distance beyond the band. */
  correct() {
    const error = this.smoothed - this.target;
    const beyond = error > this.band ? error - this.band : error < -this.band ? error + this.band : 0;
    const wanted = 1 + Math.max(-this.maximumRatio, Math.min(this.maximumRatio, this.correctionGain * beyond / sampleRate));
    // Back inside the band the ratio returns to exactly 1, and the copy path resumes once the read position is
    // on a whole sample: a fractional phase left over is worked off over one quantum (128 samples: a 0.8 % faster
    // pass at most), and rounding residue below a millionth of a sample is dropped.
    if (wanted === 1 && this.phase !== 0) {
      if (this.phase < 1e-6) { this.phase = 0; this.ratio = 1; return; }
      if (this.phase > 1 - 1e-6) { this.phase = 0; this.read = (this.read + 1) % this.capacity; this.fill = Math.max(0, this.fill - 1); this.ratio = 1; return; }
      this.ratio = 1 + (1 - this.phase) / this.quantum;
      return;
    }
    this.ratio = wanted;
  }
}

/** 4-point, 3rd-order Hermite interpolation between x0 and x1 at 0 ≤ t < 1. */
function hermite(xm, x0, x1, x2, t) {
  const c1 = 0.5 * (x1 - xm);
  const c2 = xm - 2.5 * x0 + 2 * x1 - 0.5 * x2;
  const c3 = 0.5 * (x2 - xm) + 1.5 * (x0 - x1);
  return ((c3 * t + c2) * t + c1) * t + x0;
}

registerProcessor("prospero-pcm-player", PCMPlayer);
