/// Tremolo: amplitude modulation by an `LFO` (sine, triangle, square, saw, reverse saw, pulse), free in
/// Hz or synced to a tempo, with depth 0…1.
///
/// Gain = 1 − depth · (1 − m)/2 for the LFO's bipolar value m,
/// so the gain swings between 1 (m = +1) and 1 − depth (m = −1). For the shapes with jumps (square,
/// saw, reverse saw, pulse) the gain passes a one-pole smoother (time constant `edgeSmoothingTime`,
/// default 2 ms) so edges never click; sine and triangle pass unsmoothed (no lag). Depth glides linearly
/// over 20 ms. `phase` is the LFO's output phase 0…1 for display.
///
///     var trem = Tremolo(waveform: .square, rate: .synced(.eighth, bpm: 96), depth: 0.6)
///     trem.prepare(spec)
///     trem.process(left: l, right: r)         // same gain on both channels
@frozen
public struct Tremolo: MonoProcessor, StereoProcessor, Sendable {
    @usableFromInline var lfo: LFO
    @usableFromInline var depthSmoother: SmoothedParameter
    @usableFromInline var gain: Float = 1
    @usableFromInline var edgeCoefficient: Float = 1
    @usableFromInline var sampleRate: Double = 48_000
    /// Time constant in seconds of the edge smoother for square and saw shapes (≥ 0).
    public private(set) var edgeSmoothingTime: Double

    /// - Parameters:
    ///   - waveform: LFO shape.
    ///   - rate: Hz (0…fs/4) or a synced division.
    ///   - depth: 0…1 (clamped): 0 = no effect, 1 = full cut at the trough.
    ///   - edgeSmoothingTime: seconds, ≥ 0 (default 0.002).
    public init(waveform: Waveform = .sine, rate: LFORate = .hertz(5), depth: Float = 0.5, edgeSmoothingTime: Double = 0.002) {
        lfo = LFO(waveform: waveform, rate: rate)
        depthSmoother = SmoothedParameter(initialValue: Self.clampDepth(depth), style: .linear, rampTime: 0.02)
        self.edgeSmoothingTime = max(0, edgeSmoothingTime)
        updateEdgeSmoothing()
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        lfo.prepare(spec)
        depthSmoother.prepare(sampleRate: spec.sampleRate)
        updateEdgeSmoothing()
        reset()
    }

    /// Restarts the LFO period and sets the gain to where the LFO starts.
    public mutating func reset() {
        lfo.reset()
        gain = targetGain(LFO.shape(lfo.waveform, at: Float(lfo.outputPhase), pulseWidth: lfo.pulseWidth))
    }

    @usableFromInline
    static func clampDepth(_ depth: Float) -> Float {
        depth.clamped(to: 0...1, nonFinite: 0)
    }

    mutating func updateEdgeSmoothing() {
        edgeCoefficient = lfo.waveform.hasDiscontinuities
            ? OnePoleSmoother.coefficient(timeConstant: edgeSmoothingTime, sampleRate: sampleRate) : 1
    }

    /// The LFO shape.
    public var waveform: Waveform { lfo.waveform }
    /// The LFO's output phase 0…1 (for display).
    public var phase: Double { lfo.outputPhase }
    /// The current depth (smoothed), 0…1.
    public var depth: Float { depthSmoother.current }
    /// The rate in Hz.
    public var frequency: Double { lfo.frequency }
    /// The gain applied to the last sample, 1 − depth…1.
    public var currentGain: Float { gain }

    /// Changes the LFO shape (takes effect at once; the gain smoother hides the jump for edged shapes).
    public mutating func setWaveform(_ waveform: Waveform) {
        lfo.waveform = waveform
        updateEdgeSmoothing()
    }

    /// Sets the rate in Hz or as a synced division; phase-continuous.
    public mutating func setRate(_ rate: LFORate) { lfo.setRate(rate) }

    /// Glides the depth (0…1, clamped) over 20 ms.
    public mutating func setDepth(_ depth: Float) { depthSmoother.setTarget(Self.clampDepth(depth)) }

    /// Sets the phase offset (0…1) of the LFO.
    public mutating func setPhaseOffset(_ offset: Double) { lfo.setPhaseOffset(offset) }

    /// Locks a synced tremolo to the transport's beat position (quarter-note beats).
    public mutating func sync(toBeatPosition beats: Double) { lfo.sync(toBeatPosition: beats) }

    /// Changes the edge smoothing time constant (seconds, ≥ 0).
    public mutating func setEdgeSmoothingTime(_ seconds: Double) {
        edgeSmoothingTime = max(0, seconds.isFinite ? seconds : 0)
        updateEdgeSmoothing()
    }

    @inlinable @inline(__always)
    func targetGain(_ modulator: Float) -> Float {
        1 - depthSmoother.current * (0.5 - 0.5 * modulator)
    }

    /// The next gain (1 − depth…1).
    @inlinable @inline(__always)
    public mutating func nextGain() -> Float {
        _ = depthSmoother.next()
        let target = targetGain(lfo.nextSample())
        gain += edgeCoefficient * (target - gain)
        return gain
    }

    /// Applies the tremolo to one sample.
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        input * nextGain()
    }

    /// Applies the same gain to both samples of a frame.
    @inlinable @inline(__always)
    public mutating func processFrame(left: Float, right: Float) -> (left: Float, right: Float) {
        let g = nextGain()
        return (left * g, right * g)
    }

    /// Applies the tremolo to a mono block in place.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        var tremolo = self            // local copy: stores through `buffer` could alias `self`
        for i in buffer.indices { buffer[i] *= tremolo.nextGain() }
        self = tremolo
    }

    /// Applies the tremolo to a stereo block in place.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        precondition(left.count == right.count, "stereo buffers must have the same length")
        var tremolo = self
        if tremolo.lfo.frequency < Self.interpolationLimit && !tremolo.depthSmoother.isSmoothing {
            tremolo.processInterpolated(left: left, right: right)
        } else {
            for i in left.indices {
                let g = tremolo.nextGain()
                left[i] *= g
                right[i] *= g
            }
        }
        self = tremolo
    }

    /// Below this LFO rate (Hz) stereo blocks read the LFO every `interpolationStep` samples and draw
    /// the gain as a line in between: at depth 1 and 40 Hz (a 1/32 note at 300 BPM) the line is within
    /// 1.1e-4 of the curve (−79 dB), at usual tremolo rates far closer; the jumps of edged shapes
    /// become 8-sample ramps ahead of the edge smoother. Faster LFOs (audio-rate AM) run per sample.
    public static let interpolationLimit = 40.0
    @usableFromInline static var interpolationStep: Int { 8 }

    @inlinable @inline(__always)
    mutating func processInterpolated(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let depth = depthSmoother.current
        let c = edgeCoefficient
        var g = gain
        var start = targetGain(lfo.value)
        var i = 0
        while i < left.count {
            let run = min(Self.interpolationStep, left.count - i)
            lfo.skip(run)
            let end = 1 - depth * (0.5 - 0.5 * lfo.value)
            let step = (end - start) / Float(run)
            if c == 1 && run == 8, let l = left.baseAddress, let r = right.baseAddress {
                // No edge smoother (smooth shapes): the gain is the line itself, eight lanes at once (the
                // one-pole's serial chain was most of this loop's time).
                let gains = start + step * SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
                let pl = UnsafeMutableRawPointer(l + i), pr = UnsafeMutableRawPointer(r + i)
                pl.storeBytes(of: pl.loadUnaligned(as: SIMD8<Float>.self) * gains, as: SIMD8<Float>.self)
                pr.storeBytes(of: pr.loadUnaligned(as: SIMD8<Float>.self) * gains, as: SIMD8<Float>.self)
                g = gains[7]
                start = end
                i += run
                continue
            }
            for k in 0..<run {
                g += c * (start + step * Float(k) - g)
                left[i + k] *= g
                right[i + k] *= g
            }
            start = end
            i += run
        }
        gain = g
    }
}
