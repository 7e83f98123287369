/// Something `RecordingReader` changed while reading, and says so.
public struct RecordingWarning: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the frame after the gap.
    public var line: Int
    /// The gap in the file, seconds.
    public var gap: Double
    /// What it was shortened to, seconds (`RecordingLimits.maximumGap`).
    public var shortenedTo: Double

    public init(line: Int, gap: Double, shortenedTo: Double) {
        self.line = line
        self.gap = gap
        self.shortenedTo = shortenedTo
    }

    public var description: String {
        "recording line \(line): a gap of \(gap) s without frames was shortened to \(shortenedTo) s"
    }
}
