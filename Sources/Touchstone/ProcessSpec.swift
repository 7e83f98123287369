/// What a kernel is prepared for: the stream it will be asked to process.
///
/// Passed to `prepare(_:)`, the only call in which a kernel may allocate.
/// After it, `process` may be called with any block of at most
/// `maximumBlockSize` frames, on the audio thread.
public struct ProcessSpec: Sendable, Hashable, Codable {
    /// Samples per second per channel, in Hz (typically 44 100…192 000).
    public var sampleRate: Double
    /// The largest block `process` will ever be given, in frames (1…8192).
    public var maximumBlockSize: Int
    /// Interleaving is never used; this is the number of separate channel buffers (1 or 2 for most kernels).
    public var channelCount: Int

    public init(sampleRate: Double, maximumBlockSize: Int, channelCount: Int = 1) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
        precondition(maximumBlockSize > 0, "maximum block size must be at least one frame")
        precondition(channelCount > 0, "a kernel processes at least one channel")
        self.sampleRate = sampleRate
        self.maximumBlockSize = maximumBlockSize
        self.channelCount = channelCount
    }
}
