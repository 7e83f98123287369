import ArgumentParser
import Ariel
import Enobarbus
import Foundation
import Games
import Haptics

/// `prospero game …`: the three touch games, headless.
struct GameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "game",
        abstract: "Run the touch games (Harmony With Me, Feel Your Vibe, Touch for Music) headless.",
        subcommands: [GameSimulateCommand.self]
    )
}

/// `prospero game simulate harmony|vibe|touch --script touches.jsonl -o out.wav [--haptics out.ahap]`.
struct GameSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Play a game from a scripted touch recording: its audio to WAV, its haptics to AHAP.",
        discussion: """
            The script is a Prospero recording (JSON Lines, see docs/files.md) of touch lines; \
            its header's "aspect" (screen width ÷ height) sizes Harmony With Me's circle. The player leaves \
            1 s after the last frame (or at --duration) and the music fades out. Examples: examples/games/.
            """)

    @Argument(help: "harmony, vibe or touch.")
    var game: GameKindArgument

    @Option(help: "Touch script (a Prospero recording, .jsonl).")
    var script: String

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String

    @Option(help: "Also write the haptic track as AHAP.")
    var haptics: String?

    @Option(help: "Your own background music (WAV) instead of the generated song.")
    var music: String?

    @Option(help: "Random seed (Harmony With Me's circle positions and sounds).")
    var seed: UInt64 = 1

    @Option(help: "Seconds before the player leaves (default: last frame + 1 s; at most 3600).")
    var duration: Double?

    @Option(help: "Also draw the session (waveform, spectrogram, touches, haptic events) to this .png or .svg file.")
    var plot: String?

    enum GameKindArgument: String, ExpressibleByArgument, CaseIterable {
        case harmony, vibe, touch
        var kind: GameKind { GameKind(rawValue: rawValue)! }
    }

    func validate() throws {
        if let duration, !(duration.isFinite && duration > 0 && duration <= 3600) {
            throw ValidationError("--duration must be more than 0 and at most 3600 s, got \(duration)")
        }
        try AudioPicture.validate(plot: plot)
    }

    func run() throws {
        let bytes = try HapticsIO.read(script, "touch script")
        let recording: Recording
        // A game script's pauses are part of the game (10 s without a touch brings the home button), so
        // they are kept up to the session's one-hour cap instead of being shortened as replays shorten them.
        let limits = RecordingLimits(maximumGap: 3_600)
        do { recording = try RecordingReader.parse(bytes, limits: limits) } catch { throw HapticsIO.fail("\(script): \(error)") }
        var source = GameMusic.song
        if let music {
            let wavBytes = try HapticsIO.read(music, "music WAV")
            let wav: WAVAudio
            do { wav = try WAVAudio(decoding: wavBytes) } catch { throw HapticsIO.fail("\(music): \(error)") }
            guard let l = wav.channels.first, l.count > 1 else { throw HapticsIO.fail("\(music): no audio frames") }
            source = .samples(left: l, right: wav.channels.count > 1 ? wav.channels[1] : l, sampleRate: Double(wav.sampleRate))
        }
        let touches = recording.frames.filter { if case .touch = $0 { return true } else { return false } }.count
        let session = GameSession(kind: game.kind, music: source, seed: seed)
        let result = session.run(recording, duration: duration)
        var encoder = WAVEncoder(sampleRate: Int(result.sampleRate), channelCount: 2, format: .pcm24)
        encoder.append(left: result.left, right: result.right)
        let url = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(encoder.finish()).write(to: url)
        } catch {
            throw HapticsIO.fail("cannot write \(output): \(error.localizedDescription)")
        }
        if let haptics { try HapticsIO.write(result.haptics.ahapJSON(), to: haptics) }
        let peak = zip(result.left, result.right).reduce(Float(0)) { max($0, abs($1.0), abs($1.1)) }
        let home = result.actions.filter { if case .homeButton(true) = $0.action { return true } else { return false } }.count
        print("wrote \(output): \(game.kind.title), \(String(format: "%.2f", Double(result.left.count) / result.sampleRate)) s, "
              + "\(touches) touch frames, \(result.haptics.events.count) haptic events, home button shown \(home)×, "
              + "peak \(String(format: "%.1f", peak > 0 ? 20 * log10(Double(peak)) : -120)) dBFS")
        try Self.reportAndPlot(result, recording: recording, kind: game.kind, plot: plot)
    }
}
