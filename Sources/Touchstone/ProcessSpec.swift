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
    /// Rendered for a listener as it plays (JACK, the studio), rather than offline to a file: output
    /// stages then keep their delay within `liveLatencyBudget` (`BrickwallLimiter`'s live stage).
    /// Engines pass it on to every kernel they prepare.
    public var isLive: Bool

    /// The most delay, in seconds, an output stage adds to live audio (1 ms: 48 frames at 48 kHz).
    public static let liveLatencyBudget = 0.001

    public init(sampleRate: Double, maximumBlockSize: Int, channelCount: Int = 1, isLive: Bool = false) {
        precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
        precondition(maximumBlockSize > 0, "maximum block size must be at least one frame")
        precondition(channelCount > 0, "a kernel processes at least one channel")
        self.sampleRate = sampleRate
        self.maximumBlockSize = maximumBlockSize
        self.channelCount = channelCount
        self.isLive = isLive
    }

    /// The stream a live host (a JACK client, the studio's renderer) renders: stereo, `isLive`.
    public static func live(sampleRate: Double, maximumBlockSize: Int) -> ProcessSpec {
        ProcessSpec(sampleRate: sampleRate, maximumBlockSize: max(1, maximumBlockSize), channelCount: 2, isLive: true)
    }

    /// The same stream with another block size and channel count (for an engine's inner kernels),
    /// keeping the rate and `isLive`.
    public func with(maximumBlockSize: Int? = nil, channelCount: Int) -> ProcessSpec {
        ProcessSpec(sampleRate: sampleRate, maximumBlockSize: maximumBlockSize ?? self.maximumBlockSize,
                    channelCount: channelCount, isLive: isLive)
    }
}
