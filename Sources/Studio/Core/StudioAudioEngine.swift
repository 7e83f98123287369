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
    /// Renders a period with the channel messages JACK's `midi_in` brought (sorted by frame offset, offsets
    /// inside the period), starting at audio frame time `blockStart` (JACK's frame clock; nil outside JACK),
    /// so that commands sent with a due frame play at their sample. Default: `render` above, MIDI ignored.
    func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?)
    /// Hands the MIDI this engine wants to send this period (status, data1, data2) to `send`; the JACK
    /// driver writes it to `midi_out` at frame 0. Default: none.
    func drainMIDI(_ send: (UInt8, UInt8, UInt8) -> Void)
    /// The MIDI due in the period of `frameCount` frames starting at frame time `blockStart`, each with its
    /// frame offset in the period (non-decreasing); the rest waits. Default: `drainMIDI` above, at offset 0.
    func drainMIDI(blockStart: UInt32?, frameCount: Int, _ send: (UInt8, UInt8, UInt8, Int) -> Void)
    /// Frames the output lags beyond the period (a limiter's look-ahead); default 0.
    var processingLatency: Int { get }
    /// Audio thread: the driver ended every note this engine sent (note-offs and CC 123 on `midi_out`,
    /// when another engine took over), so it must not send their note-offs again and should start its
    /// MIDI afresh when it renders next. Default: nothing.
    func midiWasReleased()
}

extension StudioAudioEngine {
    public func drainMIDI(_ send: (UInt8, UInt8, UInt8) -> Void) {}
    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?) {
        render(frameCount: frameCount, left: left, right: right)
    }
    public func drainMIDI(blockStart: UInt32?, frameCount: Int, _ send: (UInt8, UInt8, UInt8, Int) -> Void) {
        drainMIDI { send($0, $1, $2, 0) }
    }
    public var processingLatency: Int { 0 }
    public func midiWasReleased() {}
}
