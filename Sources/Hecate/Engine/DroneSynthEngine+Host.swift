extension DroneSynthEngine {
    /// Tempo range of the arpeggiator and tremolo, quarter-note beats per minute (`.bpm` clamps to it).
    public static let bpmRange: ClosedRange<Double> = 20...300
}
