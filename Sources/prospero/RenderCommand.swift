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

    @Option(name: .customLong("sample-rate"), help: "Sample rate in Hz (8000…192000).")
    var sampleRate: Int = 48_000

    @Option(name: .customLong("block-size"), help: "Frames per block (16…4096).")
    var blockSize: Int = 256

    @Option(help: "Sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm24.rawValue

    @Option(help: "Longest tail after the last event, in seconds (0…120); stops early at silence.")
    var tail: Double = 4

    @Option(help: "Also draw the render (waveform, spectrogram, piano roll) to this .png or .svg file.")
    var plot: String?

    func validate() throws {
        try AudioPicture.validate(plot: plot)
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000, got \(sampleRate)") }
        guard (16...4096).contains(blockSize) else { throw ValidationError("--block-size must be 16…4096, got \(blockSize)") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown --format '\(format)'; choose pcm16, pcm24 or float32") }
        guard tail.isFinite, (0...120).contains(tail) else { throw ValidationError("--tail must be 0…120 seconds, got \(tail)") }
    }

    func run() throws {
        let settings = try synth.settings()
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: song)))
        } catch {
            FileHandle.standardError.write(Data("error: cannot read \(song): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        let options = OfflineRenderOptions(
            sampleRate: Double(sampleRate), blockSize: blockSize, format: WAVSampleFormat(rawValue: format)!,
            tailSeconds: tail)
        let showProgress = isatty(STDERR_FILENO) != 0
        var progress: ((Double) -> Void)?
        if showProgress { progress = { Self.drawProgress($0) } }
        let result: (wav: [UInt8], summary: PolySynthSongRender.Summary)
        do {
            result = try PolySynthSongRender.render(
                midiFile: bytes, settings: settings, capacity: max(16, settings.polyphony), options: options,
                progress: progress)
        } catch {
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            FileHandle.standardError.write(Data("error: \(song): \(error)\n".utf8))
            throw ExitCode.failure
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        let url = URL(fileURLWithPath: output)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(result.wav).write(to: url)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(output): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        print("wrote \(output): \(result.summary)")
        try reportAndPlot(wav: result.wav, song: bytes, sampleRate: Double(sampleRate))
    }

    /// Prints the loudness of what was written and draws its picture when `--plot` asks.
    func reportAndPlot(wav: [UInt8], song: [UInt8], sampleRate: Double) throws {
        guard let audio = try? WAVAudio(decoding: wav) else { return }
        let analyzer = AudioPicture.analyze(audio.channels, sampleRate: sampleRate, picture: plot != nil)
        print(AudioPicture.loudnessLine(analyzer.report))
        if let plot {
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
