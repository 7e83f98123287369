extension DroneSynthEngine {
    /// Tempo range of the arpeggiator and tremolo, quarter-note beats per minute (`.bpm` clamps to it).
    public static let bpmRange: ClosedRange<Double> = 20...300

    /// Frames the output stage delays the signal (the limiter's look-ahead and true-peak detector), for a
    /// host's latency compensation.
    public var latencySamples: Int { output.limiter.latencySamples }
}
