/// The periodic shapes Touchstone's oscillators and LFOs produce, all bipolar −1…1.
///
/// Phase convention (phase 0…1 over one period), shared by `BandLimitedOscillator` and `LFO` so an
/// oscillator and an LFO with the same phase agree:
/// - `sine`: sin(2π·phase), starts at 0 rising.
/// - `triangle`: starts at 0 rising, +1 at phase ¼, −1 at phase ¾ (in phase with the sine).
/// - `saw`: rises from −1 to +1 over the period, drops at phase 0.
/// - `reverseSaw`: falls from +1 to −1 (the saw negated).
/// - `square`: +1 for the first half, −1 for the second.
/// - `pulse`: +1 for the first `pulseWidth` of the period, −1 after (oscillators remove the DC offset
///   2·width − 1 so the output stays centred).
public enum Waveform: UInt8, Sendable, Hashable, CaseIterable, Codable {
    case sine
    case triangle
    case saw
    case square
    case pulse
    case reverseSaw

    /// Whether the shape has jumps (saw, reverse saw, square, pulse), which band-limiting or
    /// edge smoothing must soften.
    @inlinable
    public var hasDiscontinuities: Bool {
        switch self {
        case .sine, .triangle: false
        case .saw, .square, .pulse, .reverseSaw: true
        }
    }
}
