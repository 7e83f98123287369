/// A low-frequency oscillator for modulation: sine, triangle, saw, reverse saw, square, pulse.
///
/// Output is bipolar −1…1 (use `LFO.unipolar(_:)` or `nextUnipolar()` for 0…1). Shapes are not
/// band-limited: at LFO rates the jumps are intended, and consumers that must not click (tremolo)
/// smooth them. The phase runs in Double so a tempo-synced LFO stays locked over hours.
///
/// Phase convention is `Waveform`'s; `phaseOffset` (0…1) shifts the shape, so two LFOs with offsets
/// 0 and 0.25 run in quadrature. `outputPhase` is the phase including the offset (what a display shows).
///
///     var lfo = LFO(waveform: .triangle, rate: .synced(.eighth.dotted, bpm: 120))
///     lfo.prepare(spec)
///     let m = lfo.nextSample()                 // −1…1
@frozen
public struct LFO: SignalGenerator, Sendable {
    /// The shape. Chosen per block by `generate(into:)`.
    public var waveform: Waveform
    /// Pulse width of `.pulse`, 0.01…0.99 of the period (not smoothed: set it at control rate).
    public var pulseWidth: Float {
        get { width }
        set { width = newValue.clamped(to: 0.01...0.99, nonFinite: 0.5) }
    }
    /// The rate, in Hz or synced to a tempo.
    public private(set) var rate: LFORate
    /// Phase offset 0…1 added to the running phase.
    public private(set) var phaseOffset: Double

    @usableFromInline var width: Float = 0.5
    @usableFromInline var phaseValue: Double = 0
    @usableFromInline var increment: Double = 0
    @usableFromInline var sampleRate: Double = 48_000

    /// - Parameters:
    ///   - waveform: the shape.
    ///   - rate: Hz or synced division (default 1 Hz).
    ///   - phaseOffset: 0…1 (wrapped).
    public init(waveform: Waveform = .sine, rate: LFORate = .hertz(1), phaseOffset: Double = 0) {
        self.waveform = waveform
        self.rate = rate
        self.phaseOffset = 0
        setPhaseOffset(phaseOffset)
        setRate(rate)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        setRate(rate)
        reset()
    }

    /// Restarts the period (running phase 0; the offset still applies).
    public mutating func reset() {
        phaseValue = 0
    }

    /// Sets the rate (Hz, clamped to 0…sampleRate/4, or a tempo-synced division). The phase is
    /// continuous: changing the rate never jumps the output.
    public mutating func setRate(_ newRate: LFORate) {
        rate = newRate
        let hz = min(newRate.hertz, sampleRate / 4)
        increment = hz / sampleRate
    }

    /// Sets the phase offset, 0…1 (wrapped). The output jumps by the offset change.
    public mutating func setPhaseOffset(_ offset: Double) {
        let wrapped = offset - offset.rounded(.down)
        phaseOffset = wrapped.isFinite ? wrapped : 0
    }

    /// Locks a tempo-synced LFO to the transport: sets the running phase to where a period that
    /// started on beat 0 would be at `beatPosition` (quarter-note beats). No-op for a Hz rate.
    public mutating func sync(toBeatPosition beatPosition: Double) {
        guard case .synced(let division, _) = rate, beatPosition.isFinite else { return }
        let periods = beatPosition / division.beats
        phaseValue = periods - periods.rounded(.down)
    }

    /// The running phase 0…1 (without the offset).
    @inlinable
    public var phase: Double { phaseValue }

    /// The phase of the next output sample including `phaseOffset`, 0…1 — e.g. a tremolo display.
    @inlinable
    public var outputPhase: Double {
        let p = phaseValue + phaseOffset
        return p >= 1 ? p - 1 : p
    }

    /// The value `nextSample()` will return, without advancing (bipolar −1…1). With `skip(_:)`, a
    /// slow LFO can be read at control rate and interpolated instead of evaluated every sample.
    @inlinable
    public var value: Float { Self.shape(waveform, at: Float(outputPhase), pulseWidth: width) }

    /// The current rate in Hz.
    @inlinable
    public var frequency: Double { increment * sampleRate }

    /// Maps a bipolar value (−1…1) to unipolar (0…1).
    @inlinable @inline(__always)
    public static func unipolar(_ bipolar: Float) -> Float {
        0.5 * bipolar + 0.5
    }

    /// The value of `waveform` at `phase` 0…1 (naive, not band-limited), bipolar −1…1.
    @inlinable @inline(__always)
    public static func shape(_ waveform: Waveform, at phase: Float, pulseWidth: Float = 0.5) -> Float {
        switch waveform {
        case .sine: return FastTrigonometry.sin(turns: phase)
        case .triangle:
            var q = phase + 0.25
            if q >= 1 { q -= 1 }
            return 1 - 4 * abs(q - 0.5)
        case .saw: return 2 * phase - 1
        case .reverseSaw: return 1 - 2 * phase
        case .square: return phase < 0.5 ? 1 : -1
        case .pulse: return phase < pulseWidth ? 1 : -1
        }
    }

    @inlinable @inline(__always)
    mutating func advance() {
        phaseValue += increment
        if phaseValue >= 1 { phaseValue -= 1 }
    }

    /// Moves on `count` samples exactly as `count` calls of `nextSample()` would (the same phase, bit
    /// for bit, unlike `skip`), without computing the waveform: for a caller whose depth is 0.
    @inlinable
    public mutating func advance(count: Int) {
        var lfo = self
        for _ in 0..<max(count, 0) { lfo.advance() }
        self = lfo
    }

    /// Next bipolar sample, −1…1.
    @inlinable
    public mutating func nextSample() -> Float {
        let y = Self.shape(waveform, at: Float(outputPhase), pulseWidth: width)
        advance()
        return y
    }

    /// Next unipolar sample, 0…1.
    @inlinable
    public mutating func nextUnipolar() -> Float {
        Self.unipolar(nextSample())
    }

    /// Advances `count` samples (≥ 0) without producing output, e.g. while a consumer is bypassed.
    @inlinable
    public mutating func skip(_ count: Int) {
        guard count > 0 else { return }
        let p = phaseValue + increment * Double(count)
        // p ≥ 0; below 2⁵³ (any count a caller could wait for) truncating through Int is the floor, and
        // unlike `rounded(.down)` it is allowed on the audio thread's checked paths.
        phaseValue = p < 9.0e15 ? p - Double(Int(p)) : 0
    }

    /// Fills `buffer` with bipolar samples.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>) {
        var lfo = self                // local copy: stores through `buffer` could alias `self`
        for i in buffer.indices { buffer[i] = lfo.nextSample() }
        self = lfo
    }
}
