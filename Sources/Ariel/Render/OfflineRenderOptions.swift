/// How an offline render runs.
public struct OfflineRenderOptions: Sendable, Hashable {
    /// Frames per second, 8 000…192 000 Hz.
    public var sampleRate: Double
    /// Frames per processing block, 16…4096. The result does not depend on it beyond float rounding
    /// in block-rate parameter updates, but for byte-identical files keep it fixed.
    public var blockSize: Int
    public var format: WAVSampleFormat
    /// Longest time rendered after the last event, so releases and reverb tails ring out, 0…120 s.
    public var tailSeconds: Double
    /// The tail stops early once the output has stayed below this level for 200 ms, in dBFS.
    public var silenceThresholdDB: Double
    /// Longest input a render accepts, in seconds (4 hours by default, > 0): a longer song or recording
    /// is refused with `OfflineRenderError.tooLong` before anything is rendered.
    public var maximumSeconds: Double
    /// Render through the live output stage (`ProcessSpec.isLive`: the 1 ms limiter JACK, the studio and the
    /// LV2 plugins play through) instead of the offline limiter: what a live host would have played.
    public var liveOutputStage: Bool

    /// The default `maximumSeconds`: 4 hours.
    public static let defaultMaximumSeconds: Double = 4 * 3600

    public init(
        sampleRate: Double = 48_000, blockSize: Int = 256, format: WAVSampleFormat = .pcm24,
        tailSeconds: Double = 4, silenceThresholdDB: Double = -90, maximumSeconds: Double = defaultMaximumSeconds,
        liveOutputStage: Bool = false
    ) {
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        self.format = format
        self.tailSeconds = tailSeconds
        self.silenceThresholdDB = silenceThresholdDB
        self.maximumSeconds = maximumSeconds
        self.liveOutputStage = liveOutputStage
    }
}
