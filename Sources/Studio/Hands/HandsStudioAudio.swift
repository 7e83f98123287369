import Ariel
import Touchstone

/// What the studio's audio driver renders for the hands screen: the built-in synth behind its
/// engine host (silent unless the output includes it), and the router's MIDI for JACK `midi_out`.
public final class HandsStudioAudio: StudioAudioEngine, @unchecked Sendable {
    public let host: EngineHost<PolySynth>
    public let midi: HandsMIDIQueue

    public init(host: EngineHost<PolySynth>, midi: HandsMIDIQueue) {
        self.host = host
        self.midi = midi
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        render(frameCount: frameCount, left: left, right: right, midi: UnsafeBufferPointer(start: nil, count: 0), blockStart: nil)
    }

    /// Touches sent with a due frame play at their sample of the period that holds it.
    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?) {
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount), blockStart: blockStart)
    }

    public func drainMIDI(_ send: (UInt8, UInt8, UInt8) -> Void) {
        midi.drain { send($0.status, $0.data1, $0.data2) }
    }

    /// The router's MIDI due in this period, at its frame (a timed message waits at most a second of frames).
    public func drainMIDI(blockStart: UInt32?, frameCount: Int, _ send: (UInt8, UInt8, UInt8, Int) -> Void) {
        midi.drain(blockStart: blockStart, frameCount: frameCount, horizon: Int(host.spec.sampleRate)) {
            send($0.status, $0.data1, $0.data2, $1)
        }
    }

    /// The synth's limiter look-ahead, at the rate it was last prepared for.
    public var processingLatency: Int { host.engine.latencySamples }
}
