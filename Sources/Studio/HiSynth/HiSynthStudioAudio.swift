import Ariel
import HiSynth
import Touchstone

/// What the studio's audio driver renders for HiSynth: the rack engine behind its `EngineHost` (commands
/// in through the lock-free ring, snapshots out), with JACK's `midi_in` applied at its frame offsets.
public final class HiSynthStudioAudio: StudioAudioEngine, @unchecked Sendable {
    public let host: EngineHost<HiSynthRackEngine>

    public init(host: EngineHost<HiSynthRackEngine>) {
        self.host = host
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
        // A block of no frames (as EngineProcessHandler does): instantiates the generic metadata
        // `EngineHost.process` needs on its first call here, not in the first period.
        host.process(left: UnsafeMutableBufferPointer(start: nil, count: 0), right: UnsafeMutableBufferPointer(start: nil, count: 0))
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

    /// The output limiter's look-ahead, frames.
    public var processingLatency: Int { host.engine.latencySamples }
}
