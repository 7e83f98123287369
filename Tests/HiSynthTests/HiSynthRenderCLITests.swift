import Ariel
import Foundation
import HiSynth
import ProsperoTestSupport
import Testing

/// `prospero hisynth songs` and `prospero hisynth render` as a user runs them: the built binary next to
/// the test bundle.
@Suite("prospero hisynth render CLI", .ownThread)
struct HiSynthRenderCLITests {
    static var binary: URL? {
        let here = Bundle.main.bundleURL
        for directory in [here, here.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("prospero")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        guard let url = Self.binary else { throw CocoaError(.fileNoSuchFile) }   // the test is disabled without it
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test(.enabled(if: binary != nil || TestPeers.required))
    func rendersABuiltInSongDeterministicallyAndReportsErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-hisynth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let songs = try Self.run(["hisynth", "songs", "--write", directory.path])
        #expect(songs.status == 0)
        let song = directory.appendingPathComponent("petzold-minuet-in-g.mid").path
        let a = directory.appendingPathComponent("a.wav").path, b = directory.appendingPathComponent("b.wav").path
        let first = try Self.run(["hisynth", "render", song, "--preset", "spring pluck", "-o", a, "--sample-rate", "22050", "--tail", "1"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("Minuet in G with Spring Pluck") && first.out.contains("peak") && first.out.contains("87 notes"))
        #expect(!first.err.contains("rendering ["))            // no progress bar when stderr is not a terminal
        // Every render reports its loudness; --plot draws the picture (a PNG starts with its signature).
        #expect(first.out.contains("loudness: integrated") && first.out.contains("dBTP"))
        let picture = directory.appendingPathComponent("b.png").path
        let drawn = try Self.run(["hisynth", "render", song, "--preset", "Spring Pluck", "-o", b, "--sample-rate", "22050", "--tail", "1", "--plot", picture])
        #expect(drawn.status == 0, "\(drawn.err)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: picture)).prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: a))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: b))))
        let wav = try WAVAudio(decoding: Array(bytes))
        #expect(wav.sampleRate == 22_050 && wav.channels.count == 2)
        let seconds = Double(wav.frameCount) / 22_050
        #expect(seconds > HiSynthSongBook.minuetInG.song.duration && seconds < HiSynthSongBook.minuetInG.song.duration + 1.1)

        let badSong = try Self.run(["hisynth", "render", directory.appendingPathComponent("a.wav").path, "-o", b])
        #expect(badSong.status == 1 && badSong.err.contains("not a valid Standard MIDI File"))
        let badPreset = try Self.run(["hisynth", "render", song, "--preset", "No Such Preset", "-o", b])
        #expect(badPreset.status == 1 && badPreset.err.contains("--preset"))
        let badRate = try Self.run(["hisynth", "render", song, "--sample-rate", "5", "-o", b])
        #expect(badRate.status != 0 && badRate.err.contains("--sample-rate"))
    }

    @Test func renderIsDeterministicAndRingsOut() throws {
        let song = HiSynthSongBook.tempoStudy.song
        let settings = HiSynthSettings(preset: HiSynthPreset.factory[0])
        let options = OfflineRenderOptions(sampleRate: 22_050, blockSize: 256, format: .pcm16, tailSeconds: 2)
        let one = try HiSynthSongRender.render(song: song, settings: settings, options: options)
        let two = try HiSynthSongRender.render(song: song, settings: settings, options: options)
        #expect(one.wav == two.wav)
        #expect(one.summary.notes == song.notes.count)
        #expect(one.summary.peakDecibels <= Double(HiSynthEngine.ceilingDecibels) + 0.01)
        #expect(one.summary.duration > song.duration && one.summary.duration <= song.duration + 2.02)
    }
}
