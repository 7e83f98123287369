import Ariel
import Touchstone

/// Any Ariel `AudioEngine` behind its `EngineHost` as a ``StudioAudioEngine``: what an instrument
/// returns from ``StudioInstrument/audio`` when its sound is one engine (Hecate's drone synth, the
/// hands' polysynth). Commands go in through `host.send` (those sent with a due frame play at that
/// sample of the period that holds it, as in `prospero hecate`), snapshots come out of
/// `host.latestSnapshot()`; channel messages from the driver's MIDI input reach the engine at their offsets.
public final class StudioEngineAudio<Engine: AudioEngine>: StudioAudioEngine, @unchecked Sendable {
    public let host: EngineHost<Engine>
    private let latency: (Double) -> Int
    private var sampleRate = 48_000.0

    /// - Parameter latency: the engine's look-ahead in frames at a sample rate (default none).
    public init(host: EngineHost<Engine>, latency: @escaping (Double) -> Int = { _ in 0 }) {
        self.host = host
        self.latency = latency
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?) {
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount), midi: midi, blockStart: blockStart)
    }

    public var processingLatency: Int { latency(sampleRate) }
}
