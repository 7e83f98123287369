import ArgumentParser
import Ariel
import Foundation
import HiSynth
import HiSynthLibrary
import Oberon

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

    @Option(help: "Also draw the render (waveform, spectrogram, piano roll) to this .png or .svg file.")
    var plot: String?

    @Option(name: .customLong("max-duration"), help: "Longest song rendered, in seconds (default 3600, at most the song reader's 1 hour); a longer one is refused before rendering.")
    var maxDuration: Double = HiSynthSong.maximumDuration

    func validate() throws {
        try AudioPicture.validate(plot: plot)
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000, got \(sampleRate)") }
        guard (16...4096).contains(blockSize) else { throw ValidationError("--block-size must be 16…4096, got \(blockSize)") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown --format '\(format)'; choose pcm16, pcm24 or float32") }
        guard tail.isFinite, (0...120).contains(tail) else { throw ValidationError("--tail must be 0…120 seconds, got \(tail)") }
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds, got \(maxDuration)") }
    }

    func run() throws {
        let chosen = try HiSynthLiveSupport.preset(preset)
        let parsed = try HiSynthLiveSupport.song(at: song)
        let options = OfflineRenderOptions(
            sampleRate: Double(sampleRate), blockSize: blockSize, format: WAVSampleFormat(rawValue: format)!, tailSeconds: tail,
            maximumSeconds: maxDuration)
        let showProgress = isatty(STDERR_FILENO) != 0
        let summary: HiSynthSongRender.Summary
        let sink: FileWAVSink
        do {
            sink = try FileWAVSink(path: output)
        } catch {
            HiSynthCommand.complain("cannot write \(output): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        do {
            summary = try HiSynthSongRender.render(
                song: parsed, settings: HiSynthSettings(preset: chosen), options: options, to: sink,
                progress: showProgress ? { RenderCommand.drawProgress($0) } : nil).summary
            try sink.close()
        } catch {
            sink.discard()
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            let hint = error is OfflineRenderError ? "; raise it with --max-duration SECONDS" : ""
            HiSynthCommand.complain("cannot render \(song) to \(output): \(error)\(hint)")
            throw ExitCode.failure
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print("wrote \(output): \(parsed.title) with \(chosen.name), \(summary)")
        // Loudness and the picture from the file written, read back in blocks (memory does not grow with the song).
        let analyzer = try AudioPicture.analyze(file: output, picture: plot != nil).analyzer
        print(AudioPicture.loudnessLine(analyzer.report))
        if let plot {
            var picture = RenderPlot.programme(title: "HISYNTH \(chosen.name.uppercased()): \(parsed.title.uppercased())", analyzer: analyzer, width: AudioPicture.width)
            picture.addPianoRoll(PianoRoll(file: parsed.file))
            try AudioPicture.write(picture, to: plot)
        }
    }
}
