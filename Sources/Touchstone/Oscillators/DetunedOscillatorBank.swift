import Foundation

/// Three band-limited oscillators detuned by −d, 0 and +d cents and mixed to one signal: the
/// "tone bank" of Hecate's chord voices (a chorus-like width from a single note).
///
/// The mix is the sum divided by 3, so the output stays within about −1…1. `setFrequency(_:)` is three
/// multiplies (the detune ratios are computed when the detune changes), so it may run per sample.
///
///     var bank = DetunedOscillatorBank(waveform: .saw, frequency: 220, detuneCents: 7)
///     bank.prepare(spec)
///     bank.generate(into: buffer)
@frozen
public struct DetunedOscillatorBank: SignalGenerator, Sendable {
    @usableFromInline var low: BandLimitedOscillator
    @usableFromInline var centre: BandLimitedOscillator
    @usableFromInline var high: BandLimitedOscillator
    @usableFromInline var ratioDown: Float = 1
    @usableFromInline var ratioUp: Float = 1
    @usableFromInline var baseFrequency: Float
    /// Detune of the outer oscillators in cents, 0…100 (clamped).
    public private(set) var detuneCents: Float

    /// - Parameters:
    ///   - waveform: the shape of all three oscillators.
    ///   - frequency: the centre frequency in Hz.
    ///   - detuneCents: spread in cents, 0…100; the outer oscillators sit at ∓detune.
    ///   - phases: starting phases 0…1 of the low, centre and high oscillator. Equal phases start
    ///     coherent (full level at once); spread phases start wide.
    public init(waveform: Waveform = .saw, frequency: Float = 220, detuneCents: Float = 7,
                phases: (Float, Float, Float) = (0, 0, 0)) {
        low = BandLimitedOscillator(waveform: waveform, frequency: frequency, phase: phases.0)
        centre = BandLimitedOscillator(waveform: waveform, frequency: frequency, phase: phases.1)
        high = BandLimitedOscillator(waveform: waveform, frequency: frequency, phase: phases.2)
        baseFrequency = frequency
        self.detuneCents = 0
        setDetune(cents: detuneCents)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        low.prepare(spec)
        centre.prepare(spec)
        high.prepare(spec)
        setFrequency(baseFrequency)
    }

    public mutating func reset() {
        low.reset()
        centre.reset()
        high.reset()
    }

    /// The shape of all three oscillators.
    public var waveform: Waveform {
        get { centre.waveform }
        set {
            low.waveform = newValue
            centre.waveform = newValue
            high.waveform = newValue
        }
    }

    /// Sets the spread in cents (0…100, clamped). Control rate: calls `pow`.
    public mutating func setDetune(cents: Float) {
        (detuneCents, ratioDown, ratioUp) = Self.detuneRatios(cents: cents)
        setFrequency(baseFrequency)
    }

    /// The spread clamped to 0…100 cents (NaN → 0) and the frequency ratios of the outer oscillators.
    static func detuneRatios(cents: Float) -> (cents: Float, down: Float, up: Float) {
        let c = cents.clamped(to: 0...100, nonFinite: 0)
        let up = Float(pow(2, Double(c) / 1200))
        return (c, 1 / up, up)
    }

    /// Sets the centre frequency in Hz; cheap enough per sample.
    @inlinable @inline(__always)
    public mutating func setFrequency(_ hz: Float) {
        baseFrequency = hz
        low.setFrequency(hz * ratioDown)
        centre.setFrequency(hz)
        high.setFrequency(hz * ratioUp)
    }

    /// Sets the pulse width (0.01…0.99) of all three oscillators.
    public mutating func setPulseWidth(_ width: Float) {
        low.setPulseWidth(width)
        centre.setPulseWidth(width)
        high.setPulseWidth(width)
    }

    /// The current frequencies of the low, centre and high oscillator in Hz.
    public var frequencies: (low: Float, centre: Float, high: Float) {
        (low.frequency, centre.frequency, high.frequency)
    }

    /// Next mixed sample ((low + centre + high) / 3).
    @inlinable
    public mutating func nextSample() -> Float {
        (low.nextSample() + centre.nextSample() + high.nextSample()) * (1 / 3)
    }

    /// Fills `buffer` with the mix; the waveform is chosen once per block.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>) {
        // Local copies: stores through `buffer` could alias `self` (see BandLimitedOscillator.generate).
        var low = self.low, centre = self.centre, high = self.high
        switch centre.waveform {
        case .sine: for i in buffer.indices { buffer[i] = (low.nextSine() + centre.nextSine() + high.nextSine()) * (1 / 3) }
        case .triangle: for i in buffer.indices { buffer[i] = (low.nextTriangle() + centre.nextTriangle() + high.nextTriangle()) * (1 / 3) }
        case .saw: for i in buffer.indices { buffer[i] = (low.nextSaw() + centre.nextSaw() + high.nextSaw()) * (1 / 3) }
        case .square: for i in buffer.indices { buffer[i] = (low.nextSquare() + centre.nextSquare() + high.nextSquare()) * (1 / 3) }
        case .pulse: for i in buffer.indices { buffer[i] = (low.nextPulse() + centre.nextPulse() + high.nextPulse()) * (1 / 3) }
        case .reverseSaw: for i in buffer.indices { buffer[i] = (low.nextReverseSaw() + centre.nextReverseSaw() + high.nextReverseSaw()) * (1 / 3) }
        }
        self.low = low
        self.centre = centre
        self.high = high
    }
}
