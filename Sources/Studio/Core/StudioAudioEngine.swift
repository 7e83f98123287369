import Ariel

/// What the studio's audio driver renders for the active instrument (a JACK period, a browser block):
/// the instrument's engine behind Ariel's command ring (`EngineHost`). Control reaches it only by
/// commands; the UI reads it only by snapshots.
///
/// `prepare` may allocate; `render` and `drainMIDI` run on the audio thread under the render rules
/// (no allocation, locks, throws, logging or `String`).
public protocol StudioAudioEngine: AnyObject, Sendable {
    /// Sizes everything for `sampleRate` (Hz) and blocks of at most `maximumFrames`; never while rendering.
    func prepare(sampleRate: Double, maximumFrames: Int)
    /// Renders `frameCount` frames into `left`/`right` (zeroed on entry; linear amplitude −1…1).
    func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>)
    /// Renders like ``render(frameCount:left:right:)`` with the channel messages JACK's `midi_in` brought
    /// this period (sorted by frame offset, offsets inside the period). Default: the MIDI is ignored.
    func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                midi: UnsafeBufferPointer<TimedMIDIMessage>)
    /// Hands the MIDI this engine wants to send this period (status, data1, data2) to `send`; the JACK
    /// driver writes it to `midi_out` at frame 0. Default: none.
    func drainMIDI(_ send: (UInt8, UInt8, UInt8) -> Void)
    /// Frames the output lags beyond the period (a limiter's look-ahead); default 0.
    var processingLatency: Int { get }
}

extension StudioAudioEngine {
    public func drainMIDI(_ send: (UInt8, UInt8, UInt8) -> Void) {}
    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>) {
        render(frameCount: frameCount, left: left, right: right)
    }
    public var processingLatency: Int { 0 }
}
