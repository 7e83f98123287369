import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero render` as a user runs it: the built binary next to the test bundle.
@Suite("prospero render CLI", .ownThread)
struct PolySynthRenderCLITests {
    static var binary: URL? { TestPeers.prospero }

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try TestPeers.require(binary, "the prospero executable (swift build)")
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

    @Test(.enabled(if: TestPeers.enabled(binary != nil)))
    func rendersTheSongDeterministicallyAndReportsErrors() throws {
        let song = try #require(Bundle.module.url(forResource: "song", withExtension: "mid", subdirectory: "Fixtures"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-render-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.wav").path, second = directory.appendingPathComponent("b.wav").path
        let options = ["--waveform", "triangle", "--reverb-mix", "0.2", "--delay-time", "0.25", "--format", "pcm16", "--tail", "1"]
        let a = try Self.run(["render", song.path, "-o", first] + options)
        #expect(a.status == 0, "\(a.err)")
        #expect(a.out.contains("64 notes"), "\(a.out)")
        #expect(a.out.contains("peak -"), "\(a.out)")
        #expect(!a.err.contains("rendering ["), "no progress bar when stderr is not a terminal")
        let b = try Self.run(["render", song.path, "-o", second] + options)
        #expect(b.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
        let audio = try WAVAudio(decoding: Array(bytes))
        #expect(audio.format == .pcm16 && audio.channels.count == 2 && audio.frameCount > 48_000 * 15)

        // Not a MIDI file: the MIDIFileError message, non-zero exit.
        let notMIDI = directory.appendingPathComponent("bad.mid")
        try Data("hello".utf8).write(to: notMIDI)
        let bad = try Self.run(["render", notMIDI.path, "-o", directory.appendingPathComponent("bad.wav").path])
        #expect(bad.status != 0)
        #expect(bad.err.contains("MThd"), "\(bad.err)")
        // A setting out of range names the field.
        let range = try Self.run(["render", song.path, "-o", first, "--reverb-decay", "99"])
        #expect(range.status != 0)
        #expect(range.err.contains("reverb.decay must be 0.1…30"), "\(range.err)")
    }
}
