import ArgumentParser
import Ariel
import Foundation
import Hecate

/// `prospero demo`: Hecate playing the committed face performance with both sound packs, to WAV.
///
/// It needs no audio hardware and no camera: the face comes from `examples/face-performance.jsonl`
/// (written by `scripts/make-face-performance.py`), which walks through every row of Hecate's
/// voicing and sculpting tables and loses and finds the face once. The file holds the Cathedral
/// render, two seconds of silence, then the Coven render.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render Hecate's face-performance demo with the Cathedral and Coven packs to one WAV file."
    )

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String = "out/demo.wav"

    @Option(name: .shortAndLong, help: "The face recording to play.")
    var input: String = "examples/face-performance.jsonl"

    @Option(help: "Key: C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B.")
    var key: String = "D"

    @Option(help: "Chord sequence with start times in seconds (Nashville numbers).")
    var chord: String = "I@0,IV@12.5,vi@19.5,V@25.5,I@32.5"

    @Option(help: "Tempo in BPM (20…300).")
    var bpm: Double = 84

    @Option(help: "Packs to render, in order, comma separated (cathedral, coven or pack files).")
    var packs: String = "cathedral,coven"

    @Option(help: "Sample rate in Hz (8000…192000).")
    var sampleRate: Int = 48_000

    @Option(help: "Sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm16.rawValue

    func validate() throws {
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown format '\(format)'") }
    }

    func run() throws {
        let recording = try HecateCommand.loadRecording(input)
        let rate = Double(sampleRate)
        var left: [Float] = []
        var right: [Float] = []
        var lines: [String] = []
        for name in packs.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            var options = try HecateSoundOptions.parse(["--key", key, "--chord", chord, "--bpm", String(bpm), "--pack", name])
            options.pack = name
            let setup = try options.resolve()
            let audio = try HecateCommand.render(recording, setup: setup, sampleRate: rate)
            lines.append("  \(setup.pack.name): \(HecateCommand.summary(audio, sampleRate: rate))")
            if !left.isEmpty {
                let gap = [Float](repeating: 0, count: 2 * sampleRate)
                left += gap
                right += gap
            }
            left += audio.left
            right += audio.right
        }
        try HecateCommand.write((left, right), to: output, sampleRate: sampleRate, format: WAVSampleFormat(rawValue: format)!)
        print("wrote \(output): \(String(format: "%.2f", Double(left.count) / rate)) s, \(sampleRate) Hz stereo \(format)")
        print("Hecate playing \(input) (\(recording.frames.count) face frames), key \(key), chords \(chord):")
        print(lines.joined(separator: "\n"))
    }
}
