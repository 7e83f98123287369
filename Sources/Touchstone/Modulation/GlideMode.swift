/// How a `Glide` moves between pitches.
public enum GlideMode: Sendable, Hashable, Codable {
    /// No portamento: the pitch jumps.
    case off
    /// Every glide takes the same time, in seconds (0…10), whatever the interval.
    case time(Double)
    /// Constant speed in semitones per second (> 0): an octave at 12 st/s takes 1 s, a fifth 0.58 s.
    case rate(semitonesPerSecond: Double)
}
