import Ariel
import Touchstone

/// Any Ariel `AudioEngine` behind its `EngineHost` as a ``StudioAudioEngine``: what an instrument
/// returns from ``StudioInstrument/audio`` when its sound is one engine (Hecate's drone synth, the
/// hands' polysynth). Commands go in through `host.send` (those sent with a due frame play at that
/// sample of the period that holds it, as in `prospero hecate`), snapshots come out of
/// `host.latestSnapshot()`; channel messages from the driver's MIDI input reach the engine at their offsets.
/// An engine that plays MIDI (Hecate's `midiOutbox`) hands it to the driver after each period at its frames.
public final class StudioEngineAudio<Engine: AudioEngine>: StudioAudioEngine, @unchecked Sendable {
    public let host: EngineHost<Engine>
    private let latency: (Double) -> Int
    private var sampleRate = 48_000.0
    /// The engine's MIDI (nil: none), drained by `drainMIDI` after each period.
    public let midiOutbox: EngineMIDIOutbox?
    private let released: ((Engine) -> Void)?

    /// - Parameters:
    ///   - latency: the engine's look-ahead in frames at a sample rate (default none).
    ///   - midiOutbox: where the engine posts the MIDI it plays (nil: none).
    ///   - midiReleased: tells the engine (audio thread) that the driver ended every note it sent.
    public init(host: EngineHost<Engine>, latency: @escaping (Double) -> Int = { _ in 0 },
                midiOutbox: EngineMIDIOutbox? = nil, midiReleased: ((Engine) -> Void)? = nil) {
        self.host = host
        self.latency = latency
        self.midiOutbox = midiOutbox
        released = midiReleased
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        midiOutbox?.discard()
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?) {
        // What the last period left undrained had no receiver (a driver without MIDI out, the browser's).
        midiOutbox?.discard()
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount), midi: midi, blockStart: blockStart)
    }

    public var processingLatency: Int { latency(sampleRate) }

    /// The engine's MIDI of the period just rendered, each message at its frame offset in it.
    public func drainMIDI(blockStart: UInt32?, frameCount: Int, _ send: (UInt8, UInt8, UInt8, Int) -> Void) {
        midiOutbox?.drain(lastFrames: frameCount) { send($0.status, $0.data1, $0.data2, $1) }
    }

    public func midiWasReleased() { released?(host.engine) }
}
