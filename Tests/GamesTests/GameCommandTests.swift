import Ariel
import Enobarbus
import Foundation
import Games
import Haptics
import ProsperoTestSupport
import Testing

/// `prospero haptics …` and `prospero game simulate` as a user runs them.
@Suite(.ownThread) struct ProsperoHapticsCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var prospero: URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("prospero")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    static func run(_ arguments: [String]) throws -> CLIProcess.Result {
        let prospero = try #require(Self.prospero, "prospero is built next to the test bundle (swift build first)")
        return try CLIProcess.run(prospero, arguments, directory: repository)
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("prospero-haptics-\(getpid())-\(name)").path
    }

    @Test func patternsForEveryFormat() throws {
        let android = try Self.run(["haptics", "pattern", "heavy", "--format", "android"])
        #expect(android.status == 0)
        #expect(android.output == "{\n  \"timings\": [200, 200, 200, 200, 200],\n  \"amplitudes\": [255, 204, 153, 102, 51],\n  \"repeat\": -1\n}\n")
        #expect(android.error.contains("warning: android: sharpness dropped"))
        let path = Self.temporary("adaptive.ahap")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ahap = try Self.run(["haptics", "pattern", "adaptive", "--rate", "4", "--amplitude", "0.5", "--duration", "1", "-o", path])
        #expect(ahap.status == 0 && ahap.output.isEmpty)
        let read = try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(read == HapticManager.adaptive(rate: 4, amplitude: 0.5, duration: 1))
        let web = try Self.run(["haptics", "pattern", "tap", "--format", "web"])
        // The 30 ms tap covers the middle of one 20 ms window: 0.4 × 20 = 8 ms on.
        #expect(web.output == "{\n  \"pattern\": [8]\n}\n")
        let rumble = try Self.run(["haptics", "pattern", "gradual", "--intensity", "1", "--format", "rumble"])
        #expect(rumble.status == 0 && rumble.output.hasPrefix("[") && rumble.output.contains("\"strong\""))
        // Converting an AHAP file gives the same as rendering the pattern.
        let converted = try Self.run(["haptics", "convert", path, "--format", "android"])
        #expect(converted.output == AndroidWaveform(read).json())
    }

    @Test func badOptionsSayWhatIsWrong() throws {
        let rate = try Self.run(["haptics", "pattern", "adaptive", "--rate", "50"])
        #expect(rate.status != 0 && rate.error.contains("--rate"))
        let name = try Self.run(["haptics", "pattern", "buzz"])
        #expect(name.status != 0 && name.error.contains("buzz"))
        let format = try Self.run(["haptics", "pattern", "tap", "--format", "midi"])
        #expect(format.status != 0 && format.error.contains("midi"))
        let bad = Self.temporary("bad.ahap")
        try Data(#"{"Pattern":[{"Event":{"EventType":"Buzz"}}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let convert = try Self.run(["haptics", "convert", bad])
        #expect(convert.status != 0 && convert.error.contains("Pattern[0]") && convert.error.contains("Buzz"))
        let missing = try Self.run(["haptics", "play", "/no/such.ahap"])
        #expect(missing.status != 0 && missing.error.contains("cannot read"))
    }

    @Test func playSaysWhenNoControllerIsThere() throws {
        let path = Self.temporary("tap.ahap")
        try HapticManager.tap().ahapJSON().write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let wrong = try Self.run(["haptics", "play", path, "--device", "/dev/input/no-such-event"])
        #expect(wrong.status != 0 && wrong.error.contains("cannot open /dev/input/no-such-event"))
        let list = try Self.run(["haptics", "play", "--list"])
        #expect(list.status == 0)
        if list.output.contains("no game controller") {
            let none = try Self.run(["haptics", "play", path])
            #expect(none.status != 0 && none.error.contains("no game controller with rumble found"))
        }
    }

    @Test func fromAudioWritesEveryTarget() throws {
        // Four decaying 440 Hz notes, 0.5 s apart, in a 16-bit mono WAV.
        let sr = 44_100
        var x = [Float](repeating: 0, count: 3 * sr)
        for k in 0..<4 {
            let start = Int((0.3 + 0.5 * Double(k)) * Double(sr))
            for i in 0..<Int(0.4 * Double(sr)) { x[start + i] += Float(0.5 * exp(-Double(i) / Double(sr) / 0.1) * sin(2 * .pi * 440 * Double(i) / Double(sr))) }
        }
        var encoder = WAVEncoder(sampleRate: sr, channelCount: 1, format: .pcm16, dither: false)
        encoder.append(mono: x)
        let wav = Self.temporary("notes.wav"), ahap = Self.temporary("notes.ahap"), android = Self.temporary("notes.json")
        let web = Self.temporary("notes-web.json"), taps = Self.temporary("notes-taps.ahap")
        try Data(encoder.finish()).write(to: URL(fileURLWithPath: wav))
        defer { for p in [wav, ahap, android, web, taps] { try? FileManager.default.removeItem(atPath: p) } }
        let result = try Self.run(["haptics", "from-audio", wav, "-o", ahap, "--android", android, "--web", web])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("4 transients"))
        let pattern = try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: ahap))))
        let transients = pattern.events.filter { $0.type == .hapticTransient }.map(\.time)
        #expect(transients.count == 4)
        for (k, t) in transients.enumerated() { #expect(abs(t - (0.3 + 0.5 * Double(k))) < 0.02) }
        let androidJSON = try HapticJSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: android))))
        #expect(androidJSON["timings"]?.array?.isEmpty == false && androidJSON["repeat"] == .number(-1))
        #expect(try HapticJSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: web))))["pattern"]?.array?.isEmpty == false)
        let split = try Self.run(["haptics", "from-audio", wav, "-o", ahap, "--transients", taps])
        #expect(split.status == 0)
        #expect(try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: taps)))).events.count == 4)
        #expect(try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: ahap)))).events.allSatisfy { $0.type == .hapticContinuous })
        let notWAV = try Self.run(["haptics", "from-audio", ahap, "-o", Self.temporary("x.ahap")])
        #expect(notWAV.status != 0 && notWAV.error.contains(ahap))
    }

    @Test(arguments: ["harmony", "vibe", "touch"])
    func simulatesEachExampleScript(game: String) throws {
        let wav = Self.temporary("\(game).wav"), ahap = Self.temporary("\(game).ahap")
        defer { try? FileManager.default.removeItem(atPath: wav); try? FileManager.default.removeItem(atPath: ahap) }
        let result = try Self.run(["game", "simulate", game, "--script", "examples/games/\(game).jsonl", "-o", wav, "--haptics", ahap])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("wrote"))
        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: wav))))
        #expect(audio.sampleRate == 48_000 && audio.channels.count == 2 && audio.frameCount > 48_000 * 10)
        let peak = audio.channels.flatMap { $0 }.map(abs).max() ?? 0
        #expect(peak > 0.05 && peak <= 0.8913 * 1.001, "peak \(peak)")
        let haptics = try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: ahap))))
        switch game {
        case "harmony":
            // Four hits, each a five-step heavy pulse; the miss gives nothing.
            #expect(haptics.events.count == 20)
            #expect(result.output.contains("home button shown 1×"))
        case "vibe": #expect(haptics.events.count >= 30)
        default: #expect(haptics.events.count >= 10)
        }
    }

    @Test func badScriptsSayWhatIsWrong() throws {
        let script = Self.temporary("bad.jsonl")
        try Data("{\"format\":\"prospero-recording\",\"version\":1}\n{\"t\":1,\"touch\":{\"slot\":0,\"x\":2,\"y\":0,\"p\":1}}\n".utf8).write(to: URL(fileURLWithPath: script))
        defer { try? FileManager.default.removeItem(atPath: script) }
        let r = try Self.run(["game", "simulate", "vibe", "--script", script, "-o", Self.temporary("x.wav")])
        #expect(r.status != 0 && r.error.contains("line 2") && r.error.contains("\"x\""))
        let game = try Self.run(["game", "simulate", "chess", "--script", script, "-o", "x.wav"])
        #expect(game.status != 0 && game.error.contains("chess"))
        let music = try Self.run(["game", "simulate", "touch", "--script", "examples/games/touch.jsonl", "-o", Self.temporary("y.wav"), "--music", "/no/such.wav"])
        #expect(music.status != 0 && music.error.contains("cannot read music WAV"))
    }
}
