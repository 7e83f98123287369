/// The games' session clock, which the models, the haptic events and the pages' clock sync share:
/// the audio clock (frames rendered ÷ sample rate) while the audio driver renders, the server's
/// monotonic clock while nothing renders (`--audio none`, or JACK stopped), joined without a jump and
/// never going back, so that a model's times stay ordered whichever clock runs.
///
/// While rendering the clock moves in whole blocks (5.3 ms at 256 frames, 48 kHz): an event stamped
/// with it is at most one block early against the sound it starts, which then leaves after the
/// engine's and the driver's latency, so the haptic leads its sound slightly (haptics.md §3: lead
/// rather than lag).
public struct GameStudioClock: Sendable, Hashable {
    /// Seconds without a new block after which the audio counts as stopped and the clock runs free.
    public static let stallTime = 0.25

    public private(set) var last = 0.0
    public private(set) var rendering = false
    private var lastFrames: Int64 = -1
    private var lastFramesAt = -Double.infinity
    private var audioOffset = 0.0
    private var freeOffset: Double

    /// - Parameter start: the monotonic time (s) at which the clock reads 0.
    public init(start: Double) { freeOffset = -start }

    /// The clock at monotonic time `now` (s), given the frames rendered so far at `sampleRate` (Hz).
    public mutating func time(now: Double, frames: Int64, sampleRate: Double) -> Double {
        guard now.isFinite else { return last }
        if frames != lastFrames {
            lastFrames = frames
            lastFramesAt = now
        }
        let audio = sampleRate > 0 ? Double(frames) / sampleRate : 0
        let renders = frames > 0 && sampleRate > 0 && now - lastFramesAt < Self.stallTime
        if renders != rendering {
            // Switch clocks where the other one stopped; audio that stopped at its last block has been
            // silent since then, so the free clock continues from that block's time.
            if renders { audioOffset = last - audio } else { freeOffset = last - min(now, lastFramesAt) }
            rendering = renders
        }
        let t = rendering ? audio + audioOffset : now + freeOffset
        last = max(last, t)
        return last
    }
}
