import ArgumentParser
import Ariel
import Foundation
import Oberon

/// `prospero render SONG.mid -o OUT.wav`: plays a Standard MIDI File through the built-in
/// polyphonic synth offline. Deterministic: the same file and options give the same bytes.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a MIDI file through the built-in polyphonic synth to WAV."
    )

    @Argument(help: "Standard MIDI File (format 0, 1 or 2).")
    var song: String

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String = "out/song.wav"

    @OptionGroup(title: "Synth")
    var synth: PolySynthArguments
    @OptionGroup(title: "Synth")
    var bend: SynthBendRangeArguments

    @OptionGroup(title: "Output")
    var render: OfflineRenderArguments

    @Option(name: .customLong("max-duration"), help: "Longest song rendered, in seconds (default 14400: 4 hours); a longer one is refused before rendering.")
    var maxDuration: Double = OfflineRenderOptions.defaultMaximumSeconds

    func validate() throws {
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds, got \(maxDuration)") }
    }

    func run() throws {
        let settings = try synth.settings(bendRange: bend.bendRange)
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: song)))
        } catch {
            FileHandle.standardError.write(Data("error: cannot read \(song): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        let options = render.options(defaultRate: 48_000, maximumSeconds: maxDuration)
        let showProgress = isatty(STDERR_FILENO) != 0
        var progress: ((Double) -> Void)?
        if showProgress { progress = { Self.drawProgress($0) } }
        let sink: FileWAVSink
        do { sink = try FileWAVSink(path: output) } catch {
            FileHandle.standardError.write(Data("error: cannot write \(output): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        // Streamed to the file block by block: memory does not grow with the song.
        let summary: PolySynthSongRender.Summary
        do {
            summary = try PolySynthSongRender.render(
                midiFile: bytes, settings: settings, capacity: max(16, settings.polyphony), options: options,
                to: sink, progress: progress).summary
            try sink.close()
        } catch {
            sink.discard()
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            let hint = error is OfflineRenderError ? "; raise it with --max-duration SECONDS" : ""
            FileHandle.standardError.write(Data("error: \(song): \(error)\(hint)\n".utf8))
            throw ExitCode.failure
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print("wrote \(output): \(summary)")
        try reportAndPlot(song: bytes)
    }

    /// Prints the loudness of the file written (read back in blocks) and draws its picture when `--plot` asks.
    func reportAndPlot(song: [UInt8]) throws {
        let analyzer = try AudioPicture.analyze(file: output, picture: render.plot != nil).analyzer
        print(AudioPicture.loudnessLine(analyzer.report))
        if let plot = render.plot {
            let name = URL(fileURLWithPath: self.song).lastPathComponent
            var picture = RenderPlot.programme(title: "RENDER \(name)", analyzer: analyzer, width: AudioPicture.width)
            if let file = try? MIDIFile(decoding: song) { picture.addPianoRoll(PianoRoll(file: file)) }
            try AudioPicture.write(picture, to: plot)
        }
    }

    /// A 40-column bar redrawn in place on stderr.
    static func drawProgress(_ fraction: Double) {
        let width = 40
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\rrendering [\(bar)] \(Int(fraction * 100))%".utf8))
    }
}
