import Ariel
import Enobarbus
import Haptics
import Touchstone

/// Plays a game headless from a script of touch frames: the game (a ``GamePlayer``, the adapter the
/// studio's game screens play through too) gets the frames and the audio clock, the audio engine renders
/// what it asks for, and the haptic events are collected into one pattern on the same clock. For tests,
/// demos and `prospero game play`.
///
/// Timing: the session clock is the audio clock (frames rendered ÷ sample rate). Before each block the
/// frames whose time has come (timestamp ≤ the block's start) go to the model, then `advance` with the
/// block's start and the music's position from the engine's snapshot; the actions apply at that block.
/// So an action is at most one block late (5.3 ms at 256 frames, 48 kHz), and its sound leaves
/// `GameAudioEngine.latency` (10 ms) later still; haptic events keep the touch's own time, so the
/// haptic leads its sound by 10–15 ms (haptics.md §3: lead rather than lag).
public struct GameSession {
    /// What a session produced.
    public struct Result {
        public var left: [Float]
        public var right: [Float]
        public var sampleRate: Double
        /// Every haptic event, time-ordered, on the session clock.
        public var haptics: HapticPattern
        /// Every action with the session time it was applied (for tests and logs).
        public var actions: [(time: Double, action: GameAction)]
        /// The engine's snapshot after each block (for tests: music position, levels).
        public var snapshots: [(time: Double, snapshot: GameAudioEngine.Snapshot)]
    }

    public let kind: GameKind
    public let music: GameMusic
    public let seed: UInt64
    public let sampleRate: Double
    public let blockSize: Int

    public init(kind: GameKind, music: GameMusic = .song, seed: UInt64 = 1, sampleRate: Double = 48_000, blockSize: Int = 256) {
        self.kind = kind
        self.music = music
        self.seed = seed
        self.sampleRate = sampleRate
        self.blockSize = max(16, min(blockSize, 4096))
    }

    /// Seconds a session plays after the script's last frame before the player leaves.
    public static let holdAfterScript = 1.0

    /// Runs the game over `recording`'s frames.
    ///
    /// - Parameters:
    ///   - recording: touch frames (other frames are ignored); its `aspectRatio` (width ÷ height) sizes
    ///     Harmony With Me's circle (portrait 9 : 19.5 when absent).
    ///   - duration: seconds before the player leaves (default: the last frame + 1 s); the fade-out
    ///     then plays to the end.
    ///   - keepSnapshots: record the engine's snapshot after each block.
    public func run(_ recording: Recording, duration: Double? = nil, keepSnapshots: Bool = false) -> Result {
        var player = GamePlayer(kind: kind, seed: seed)
        let frames = recording.frames.filter { if case .touch = $0 { return true }; if case .ended(.touch, _) = $0 { return true }; return false }
        let leaveAt = max(0.1, min(duration ?? ((frames.last?.timestamp ?? 0) + Self.holdAfterScript), 3600))
        let fadeOut = 1.0
        let total = leaveAt + fadeOut + GameAudioEngine.latency
        let engine = GameAudioEngine(music: music)
        engine.prepare(ProcessSpec(sampleRate: sampleRate, maximumBlockSize: blockSize, channelCount: 2))
        let frameCount = Int((total * sampleRate).rounded(.up))
        var left = [Float](repeating: 0, count: frameCount), right = left
        var haptics: [HapticEvent] = []
        var actions: [(time: Double, action: GameAction)] = []
        var snapshots: [(time: Double, snapshot: GameAudioEngine.Snapshot)] = []
        func apply(_ list: [GameAction], at time: Double) {
            for a in list {
                actions.append((time, a))
                switch a {
                case .audio(let c): engine.handle(c)
                case .haptic(let e): haptics.append(e)
                case .homeButton: break
                }
            }
        }
        apply(player.start(at: 0, aspectRatio: recording.aspectRatio ?? 9.0 / 19.5), at: 0)
        var next = 0
        var position = 0
        while position < frameCount {
            let n = min(blockSize, frameCount - position)
            let time = Double(position) / sampleRate
            while next < frames.count, frames[next].timestamp <= time, frames[next].timestamp < leaveAt {
                apply(player.handle(frames[next]), at: time)
                next += 1
            }
            if player.isRunning && time >= leaveAt {
                apply(player.leave(at: time), at: time)
            }
            apply(player.advance(to: time, musicPosition: engine.snapshot().musicPosition), at: time)
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    engine.render(left: UnsafeMutableBufferPointer(rebasing: l[position..<(position + n)]),
                                  right: UnsafeMutableBufferPointer(rebasing: r[position..<(position + n)]))
                }
            }
            position += n
            if keepSnapshots { snapshots.append((Double(position) / sampleRate, engine.snapshot())) }
        }
        haptics.sort { $0.time < $1.time }
        let pattern = HapticPattern(events: haptics, metadata: [("Project", "Prospero"), ("Description", "\(kind.title), scripted session")])
        return Result(left: left, right: right, sampleRate: sampleRate, haptics: pattern, actions: actions, snapshots: snapshots)
    }
}
