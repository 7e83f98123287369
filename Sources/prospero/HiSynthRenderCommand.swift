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

    @OptionGroup(title: "Output")
    var render: OfflineRenderArguments

    @Option(name: .customLong("max-duration"), help: "Longest song rendered, in seconds (default 3600, at most the song reader's 1 hour); a longer one is refused before rendering.")
    var maxDuration: Double = HiSynthSong.maximumDuration

    func validate() throws {
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds, got \(maxDuration)") }
    }

    func run() throws {
        let chosen = try HiSynthLiveSupport.preset(preset)
        let parsed = try HiSynthLiveSupport.song(at: song)
        let options = render.options(defaultRate: 44_100, maximumSeconds: maxDuration)
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
        let analyzer = try AudioPicture.analyze(file: output, picture: render.plot != nil).analyzer
        print(AudioPicture.loudnessLine(analyzer.report))
        if let plot = render.plot {
            var picture = RenderPlot.programme(title: "HISYNTH \(chosen.name.uppercased()): \(parsed.title.uppercased())", analyzer: analyzer, width: AudioPicture.width)
            picture.addPianoRoll(PianoRoll(file: parsed.file))
            try AudioPicture.write(picture, to: plot)
        }
    }
}
