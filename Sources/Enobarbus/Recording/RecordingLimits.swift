/// What `RecordingReader` accepts, so that no file can take unbounded memory or time downstream.
public struct RecordingLimits: Sendable, Hashable {
    /// Largest file, in bytes (1 GiB by default: about 4 hours of one face at 60 frames a second).
    public var maximumBytes: Int
    /// Most frames (2 000 000 by default: over 9 hours of one sender at 60 frames a second).
    public var maximumFrames: Int
    /// Longest time between two frames (and before the first), seconds: longer gaps are shortened to
    /// this with a warning, so a pause in a take does not become hours of silence (10 s by default).
    public var maximumGap: Double

    public init(maximumBytes: Int = 1 << 30, maximumFrames: Int = 2_000_000, maximumGap: Double = 10) {
        self.maximumBytes = maximumBytes
        self.maximumFrames = maximumFrames
        self.maximumGap = maximumGap
    }
}
