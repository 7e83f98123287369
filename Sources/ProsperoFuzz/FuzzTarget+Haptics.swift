import Enobarbus
import Games
import Haptics

extension FuzzTarget {
    /// What the AHAP reader accepts, the writer must write back to the same pattern, and every renderer
    /// must render without trapping.
    static func runAHAP(_ bytes: [UInt8]) -> Bool {
        guard let pattern = try? HapticPattern(ahap: bytes) else { return false }
        guard let again = try? HapticPattern(ahap: pattern.ahapJSON()), again == pattern else {
            fatalError("AHAP round trip changed the pattern")
        }
        _ = AndroidWaveform(pattern)
        _ = WebVibrationPattern(pattern)
        _ = RumbleTrack(pattern)
        return true
    }

    /// A game script runs through all three game models (the audio is left out: the models are what
    /// the script's content reaches).
    static func runGameScript(_ bytes: [UInt8]) -> Bool {
        guard let recording = try? RecordingReader.parse(bytes, limits: RecordingLimits(maximumGap: 3_600)) else { return false }
        var models: [any GameModel] = [
            HarmonyWithMe(random: GameRandom(seed: 1), aspectRatio: recording.aspectRatio ?? 0.5), FeelYourVibe(), TouchForMusic(),
        ]
        for m in models.indices {
            _ = models[m].start(at: 0)
            for frame in recording.frames.prefix(2_000) {
                _ = models[m].advance(to: frame.timestamp, musicPosition: frame.timestamp.truncatingRemainder(dividingBy: GameSong.length))
                _ = models[m].handle(frame)
            }
            _ = models[m].leave(at: recording.frames.last?.timestamp ?? 0)
        }
        return true
    }
}
