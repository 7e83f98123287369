import Ariel
import Games
import Synchronization
import Touchstone

/// What the studio's audio driver renders for a game screen: the game's ``GameAudioEngine`` behind
/// Ariel's command ring (`EngineHost`), and the audio clock: the frames rendered so far, counted on
/// the audio thread with one relaxed atomic store per block (no allocation, no lock).
public final class GameStudioAudio: StudioAudioEngine, @unchecked Sendable {
    public let host: EngineHost<GameAudioEngine>
    private let frames = Atomic<Int64>(0)
    private let rateBits = Atomic<UInt64>(48_000.0.bitPattern)

    public init(music: GameMusic = .song) {
        host = EngineHost(engine: GameAudioEngine(music: music),
                          spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2))
    }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        rateBits.store(sampleRate.bitPattern, ordering: .relaxed)
        host.prepare(.live(sampleRate: sampleRate, maximumBlockSize: maximumFrames))
    }

    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount))
        frames.add(Int64(frameCount), ordering: .relaxed)
    }

    /// A period of JACK's starting at frame time `blockStart`: a touch's commands play at their due frame.
    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       midi: UnsafeBufferPointer<TimedMIDIMessage>, blockStart: UInt32?) {
        host.process(left: UnsafeMutableBufferPointer(start: left, count: frameCount),
                     right: UnsafeMutableBufferPointer(start: right, count: frameCount), blockStart: blockStart)
        frames.add(Int64(frameCount), ordering: .relaxed)
    }

    /// Frames rendered since the studio started (the audio clock's ticks).
    public var renderedFrames: Int64 { frames.load(ordering: .relaxed) }
    /// The rate the driver prepared (Hz).
    public var sampleRate: Double { Double(bitPattern: rateBits.load(ordering: .relaxed)) }

    /// The game engine's limiters look `GameAudioEngine.latency` ahead.
    public var processingLatency: Int { Int((GameAudioEngine.latency * sampleRate).rounded()) }
}
