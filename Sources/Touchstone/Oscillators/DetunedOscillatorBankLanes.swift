/// Eight `DetunedOscillatorBank`s side by side: in every lane three band-limited oscillators detuned by
/// −d, 0 and +d cents, mixed to their mean. The lanes counterpart of the bank, for chord engines
/// (Hecate's six tone banks are lanes 0…5); equal to eight scalar banks to Float rounding (tested).
///
/// `setFrequencies(_:)` is three vector multiplies and may run every sample (glides); `setDetune(cents:)`
/// calls `pow`, so it belongs at control rate. Voice loops that know the waveform call `next(_:)` with
/// an `OscillatorShape`, so the three oscillator steps inline into the loop.
///
///     var banks = DetunedOscillatorBankLanes(waveform: .saw, detuneCents: 11)
///     banks.prepare(spec)
///     banks.setFrequencies(SIMD8(130.8, 164.8, 196, 246.9, 293.7, 261.6, 0, 0))
///     let y = banks.next(SawShape.self)        // SIMD8<Float>, one bank per lane
@frozen
public struct DetunedOscillatorBankLanes: Sendable {
    public typealias Vector = SIMD8<Float>

    @usableFromInline var low: BandLimitedOscillatorLanes
    @usableFromInline var centre: BandLimitedOscillatorLanes
    @usableFromInline var high: BandLimitedOscillatorLanes
    @usableFromInline var ratioDown: Float = 1
    @usableFromInline var ratioUp: Float = 1
    @usableFromInline var baseFrequencies: Vector
    /// Detune of the outer oscillators in cents, 0…100 (clamped).
    public private(set) var detuneCents: Float = 0

    /// - Parameters:
    ///   - waveform: the shape of every oscillator.
    ///   - frequencies: centre frequency per lane in Hz (0…0.45·fs).
    ///   - detuneCents: spread in cents, 0…100.
    ///   - phases: starting phases 0…1 of the low, centre and high oscillator of every lane.
    public init(waveform: Waveform = .saw, frequencies: Vector = Vector(repeating: 220), detuneCents: Float = 7,
                phases: (low: Vector, centre: Vector, high: Vector) = (Vector(), Vector(), Vector())) {
        low = BandLimitedOscillatorLanes(waveform: waveform, frequencies: frequencies, phases: phases.low)
        centre = BandLimitedOscillatorLanes(waveform: waveform, frequencies: frequencies, phases: phases.centre)
        high = BandLimitedOscillatorLanes(waveform: waveform, frequencies: frequencies, phases: phases.high)
        baseFrequencies = frequencies
        setDetune(cents: detuneCents)
    }

    /// Takes the sample rate. No allocation.
    public mutating func prepare(_ spec: ProcessSpec) {
        low.prepare(spec)
        centre.prepare(spec)
        high.prepare(spec)
        setFrequencies(baseFrequencies)
    }

    /// Restores the starting phases.
    public mutating func reset() {
        low.reset()
        centre.reset()
        high.reset()
    }

    /// The shape of every oscillator.
    public var waveform: Waveform {
        get { centre.waveform }
        set {
            low.waveform = newValue
            centre.waveform = newValue
            high.waveform = newValue
        }
    }

    /// Sets the spread in cents (0…100, clamped; NaN becomes 0). Control rate: calls `pow`.
    public mutating func setDetune(cents: Float) {
        (detuneCents, ratioDown, ratioUp) = DetunedOscillatorBank.detuneRatios(cents: cents)
        setFrequencies(baseFrequencies)
    }

    /// Sets every lane's centre frequency in Hz; cheap enough per sample.
    @inlinable @inline(__always)
    public mutating func setFrequencies(_ hz: Vector) {
        baseFrequencies = hz
        low.setFrequencies(hz * ratioDown)
        centre.setFrequencies(hz)
        high.setFrequencies(hz * ratioUp)
    }

    /// Next mixed sample per lane ((low + centre + high) / 3) in the waveform `Shape`.
    @inlinable @inline(__always)
    public mutating func next<Shape: OscillatorShape>(_ shape: Shape.Type) -> Vector {
        (Shape.next(&low) + Shape.next(&centre) + Shape.next(&high)) * (1 / 3)
    }

    /// Next mixed sample per lane in the current `waveform` (a switch per call).
    @inlinable
    public mutating func nextSample() -> Vector {
        switch waveform {
        case .sine: next(SineShape.self)
        case .triangle: next(TriangleShape.self)
        case .saw: next(SawShape.self)
        case .square: next(SquareShape.self)
        case .pulse: next(PulseShape.self)
        case .reverseSaw: next(ReverseSawShape.self)
        }
    }
}
