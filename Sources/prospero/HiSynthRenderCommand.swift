import ArgumentParser
import Ariel
import Foundation
import HiSynth
import HiSynthLibrary

/// `prospero hisynth render SONG.mid [--preset X] -o OUT.wav`: a Standard MIDI File through HiSynth,
/// offline. Deterministic: the same file, preset and options give the same bytes.
struct HiSynthRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a MIDI file through HiSynth to WAV.",
        discussion: """
            Every track and channel plays (velocity and controllers are ignored, as in the original app). \
            Songs longer than an hour are refused. Built-in songs: `prospero hisynth songs --write DIR`.
            """
    )

    @Argument(help: "Standard MIDI File (format 0, 1 or 2).")
    var song: String

    @Option(help: "Preset: a file (JSON or preset string), a preset name, or a preset string (default: HiSynth Key).")
    var preset: String?

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String = "out/hisynth.wav"

    @Option(name: .customLong("sample-rate"), help: "Sample rate in Hz (8000…192000; the original runs at 44100).")
    var sampleRate: Int = 44_100

    @Option(name: .customLong("block-size"), help: "Frames per block (16…4096).")
    var blockSize: Int = 256

    @Option(help: "Sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm24.rawValue

    @Option(help: "Longest tail after the last event, in seconds (0…120); stops early at silence.")
    var tail: Double = 4

    func validate() throws {
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000, got \(sampleRate)") }
        guard (16...4096).contains(blockSize) else { throw ValidationError("--block-size must be 16…4096, got \(blockSize)") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown --format '\(format)'; choose pcm16, pcm24 or float32") }
        guard tail.isFinite, (0...120).contains(tail) else { throw ValidationError("--tail must be 0…120 seconds, got \(tail)") }
    }

    func run() throws {
        let chosen = try HiSynthLiveSupport.preset(preset)
        let parsed = try HiSynthLiveSupport.song(at: song)
        let options = OfflineRenderOptions(
            sampleRate: Double(sampleRate), blockSize: blockSize, format: WAVSampleFormat(rawValue: format)!, tailSeconds: tail)
        let showProgress = isatty(STDERR_FILENO) != 0
        let result = HiSynthSongRender.render(
            song: parsed, settings: HiSynthSettings(preset: chosen), options: options,
            progress: showProgress ? { RenderCommand.drawProgress($0) } : nil)
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        let url = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(result.wav).write(to: url)
        } catch {
            HiSynthCommand.complain("cannot write \(output): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        print("wrote \(output): \(parsed.title) with \(chosen.name), \(result.summary)")
    }
}
