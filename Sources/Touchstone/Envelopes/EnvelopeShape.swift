/// The curve of an envelope segment.
public enum EnvelopeShape: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Straight lines: constant change per sample. Predictable timing, sounds abrupt at the end of a release.
    case linear
    /// Analog-style RC curves: each segment approaches an overshoot target exponentially and ends
    /// exactly at the segment time. Attack is concave (approaches 130 % of full scale), decay and
    /// release are convex (about −60 dB of the segment's span left at the end, then cut).
    case exponential
}
