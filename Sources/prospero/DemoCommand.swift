import ArgumentParser
import Ariel
import Foundation
import Horatio

/// `prospero demo`: renders the music vocabulary (a scale, then a Nashville progression) to WAV.
///
/// It needs no audio hardware and no input, so it is the first thing to run on a new machine.
/// It uses plain sine partials with raised-cosine note envelopes, so every note starts and ends
/// without a click.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Render a scale and a Nashville chord progression to a WAV file."
    )

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String = "out/demo.wav"

    @Option(help: "Key: C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B.")
    var key: String = "C"

    @Option(help: "Scale: \(Scale.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scale: String = Scale.major.rawValue

    @Option(help: "Chord progression as Nashville numbers, comma separated.")
    var progression: String = "I,V,vi,IV"

    @Option(help: "Tempo in beats per minute (30…300).")
    var bpm: Double = 120

    @Option(help: "Sample rate in Hz (8000…192000).")
    var sampleRate: Int = 48_000

    @Option(help: "Sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm16.rawValue

    func validate() throws {
        guard MusicalKey(key) != nil else { throw ValidationError("unknown key '\(key)'") }
        guard Scale(rawValue: scale) != nil else {
            throw ValidationError("unknown scale '\(scale)'; choose one of \(Scale.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for item in progression.split(separator: ",") where NashvilleDegree(String(item).trimmingCharacters(in: .whitespaces)) == nil {
            throw ValidationError("'\(item)' is not a Nashville degree (I, ii, iii, IV, V, vi, vii°)")
        }
        guard (30...300).contains(bpm) else { throw ValidationError("--bpm must be 30…300, got \(bpm)") }
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown format '\(format)'") }
    }

    func run() throws {
        let key = MusicalKey(key)!
        let scale = Scale(rawValue: scale)!
        let degrees = progression.split(separator: ",").map {
            NashvilleDegree(String($0).trimmingCharacters(in: .whitespaces))!
        }
        let beat = 60 / bpm
        var notes: [(start: Double, length: Double, pitch: Pitch, level: Double)] = []
        var time = 0.0

        // The scale up one octave and back down, in eighth notes, from the tonic in octave 4.
        let steps = scale.degreeCount
        let up = (1...(steps + 1)).map { scale.semitones(ofDegree: $0) }
        for offset in up + up.reversed().dropFirst() {
            notes.append((time, beat / 2, Pitch(60 + key.rawValue + offset)!, 0.3))
            time += beat / 2
        }
        time += beat

        // The progression: each chord a bar long, bass root in octave 2, root-third-fifth-octave above.
        for degree in degrees {
            let chord = degree.chord(in: key)
            for tone: ChordTone in [.root, .third, .fifth, .octave] {
                if let p = chord.pitch(of: tone, rootOctave: 3) { notes.append((time, beat * 4, p, 0.14)) }
            }
            if let bass = chord.pitch(of: .root, rootOctave: 2) { notes.append((time, beat * 4, bass, 0.16)) }
            time += beat * 4
        }
        let total = time + 0.5
        let rate = Double(sampleRate)
        var left = [Float](repeating: 0, count: Int(total * rate))
        var right = left
        for (index, note) in notes.enumerated() {
            let f = note.pitch.frequency()
            let first = Int(note.start * rate)
            let count = Int(note.length * rate)
            let fade = min(Int(0.02 * rate), count / 2)
            let pan = 0.5 + 0.3 * sin(Double(index) * 1.7)  // spread the voices a little
            for i in 0..<count where first + i < left.count {
                let edge = i < fade ? Double(i) / Double(fade) : (i > count - fade ? Double(count - i) / Double(fade) : 1)
                let envelope = 0.5 - 0.5 * cos(Double.pi * edge)
                let t = Double(i) / rate
                let sample = note.level * envelope * (sin(2 * .pi * f * t) + 0.25 * sin(4 * .pi * f * t))
                left[first + i] += Float(sample * (1 - pan))
                right[first + i] += Float(sample * pan)
            }
        }
        var encoder = WAVEncoder(sampleRate: sampleRate, channelCount: 2, format: WAVSampleFormat(rawValue: format)!)
        encoder.append(left: left, right: right)
        let url = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(encoder.finish()).write(to: url)
        let peak = zip(left, right).map { max(abs($0), abs($1)) }.max() ?? 0
        print("""
            wrote \(output): \(String(format: "%.2f", total)) s, \(sampleRate) Hz stereo \(format), peak \(String(format: "%.1f", 20 * log10(Double(max(peak, 1e-9))))) dBFS
            \(key) \(scale.displayName) scale, then \(degrees.map { "\($0.romanNumeral) (\($0.chord(in: key).symbol))" }.joined(separator: " "))
            """)
    }
}
