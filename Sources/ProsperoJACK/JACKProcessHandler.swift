/// What renders audio and MIDI in Prospero's JACK process callback.
///
/// ``JACKClient`` calls `process` once per JACK period on JACK's real-time thread, through
/// one existential call per block. Inside `process` and `stopping` the rules of the render
/// path hold: no allocation, no locks, no throwing, no logging, no `String`, no Array growth.
/// Flush-to-zero is on while they run.
public protocol JACKProcessHandler: AnyObject {
    /// Sizes everything for `sampleRate` (Hz) and blocks of at most `maximumFrames` frames.
    /// Called before activation on the caller's thread and again on a JACK notification thread
    /// when the server's sample rate or buffer size changes, never while `process` runs.
    /// The only call that may allocate.
    func prepare(sampleRate: Double, maximumFrames: Int)

    /// Renders one period of `frameCount` frames (1 … maximumFrames).
    /// - Parameters:
    ///   - left: `frameCount` samples of the left output, zeroed on entry; write linear amplitude −1 … 1.
    ///   - right: the right output, likewise.
    ///   - midiIn: MIDI received this period, in time order, with frame offsets.
    ///   - midiOut: MIDI to send this period at frame offsets 0 ..< frameCount.
    func process(
        frameCount: Int,
        left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput,
        midiOut: inout JACKMIDIOutput
    )

    /// Called once in the final period, after `process`, when the client stops: send the
    /// note-offs and controller resets a receiving instrument needs. The client then sends
    /// a note-off for every note `midiOut` still knows to be sounding and CC 123 on every
    /// channel used (``JACKMIDIOutput/releaseAllSoundingNotes(atFrame:)``), and the audio of
    /// this period is faded to silence.
    func stopping(midiOut: inout JACKMIDIOutput)

    /// Frames by which the handler's audio lags its input beyond the period itself (a limiter's
    /// look-ahead), reported to JACK as port latency so that a DAW can compensate. Read on a JACK
    /// notification thread, after `prepare`.
    var processingLatency: Int { get }
}

extension JACKProcessHandler {
    /// By default, nothing beyond the client's own release of sounding notes.
    public func stopping(midiOut: inout JACKMIDIOutput) {}

    /// By default, none.
    public var processingLatency: Int { 0 }
}
