import Foundation
import HiSynth
import ProsperoTestSupport
import Testing

/// `prospero hisynth presets` and `prospero hisynth preset …` as a user runs them.
@Suite(.ownThread) struct HiSynthCommandTests {
    /// The `prospero` executable built next to this test bundle.
    static var prospero: URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("prospero")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Runs prospero with `arguments`, `input` on standard input and the library in `dataHome`.
    static func run(_ arguments: [String], input: String = "", dataHome: URL) throws -> (status: Int32, output: String, error: String) {
        let prospero = try #require(Self.prospero, "prospero is built next to the test bundle (swift build first)")
        let process = Process()
        process.executableURL = prospero
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        process.environment = environment
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    @Test func decodeEncodeRoundTripEveryFactoryStringThroughTheCLI() throws {
        let home = HiSynthPresetLibraryTests.scratch()
        defer { try? FileManager.default.removeItem(at: home) }
        for (string, preset) in zip(HiSynthPreset.factoryStrings, HiSynthPreset.factory) {
            let decoded = try Self.run(["hisynth", "preset", "decode", string], dataHome: home)
            #expect(decoded.status == 0 && decoded.error.isEmpty)
            #expect(decoded.output == preset.json())
            let encoded = try Self.run(["hisynth", "preset", "encode", "-"], input: decoded.output, dataHome: home)
            #expect(encoded.status == 0 && encoded.output == string + "\n", "\(preset.name): \(encoded.error)")
        }
        // Standard input with the whitespace a paste brings.
        let piped = try Self.run(["hisynth", "preset", "decode", "-"], input: "  \(HiSynthPreset.factoryStrings[9])\n\n", dataHome: home)
        #expect(piped.output.contains("\"pitch\": -0.0}"))
    }

    @Test func badInputGoesToStandardErrorWithStatusOne() throws {
        let home = HiSynthPresetLibraryTests.scratch()
        defer { try? FileManager.default.removeItem(at: home) }
        let fields = HiSynthPreset.factoryStrings[0].split(separator: ":").map(String.init)
        let badOSC = ([fields[0], "Y2Jg!"] + fields[2...]).joined(separator: ":")
        let cases: [([String], String, String)] = [
            (["hisynth", "preset", "decode", badOSC], "", "OSC: not valid base64."),
            (["hisynth", "preset", "decode", "-"], "", "Empty preset."),
            (["hisynth", "preset", "encode", "-"], "{\"name\": \"x\"}", "missing field oscillators"),
            (["hisynth", "preset", "encode", "/no/such/preset.json"], "", "/no/such/preset.json: no such file"),
            (["hisynth", "preset", "import", HiSynthPreset.factoryStrings[3]], "", "'Subway Lead' is a factory preset's name"),
        ]
        for (arguments, input, message) in cases {
            let result = try Self.run(arguments, input: input, dataHome: home)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.output.isEmpty)
            #expect(result.error.contains(message), "\(result.error)")
        }
    }

    @Test func importedPresetsAreListedAfterTheFactoryOnes() throws {
        let home = HiSynthPresetLibraryTests.scratch()
        defer { try? FileManager.default.removeItem(at: home) }
        let saved = try Self.run(["hisynth", "preset", "import", "-", "--name", "Night: Bells"], input: HiSynthPreset.factoryStrings[2], dataHome: home)
        #expect(saved.status == 0, "\(saved.error)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("prospero/hisynth/Night: Bells.json").path))
        let listed = try Self.run(["hisynth", "presets", "--strings"], dataHome: home)
        let lines = listed.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.count == 16)
        #expect(lines.prefix(15).map { $0[1] } == HiSynthPreset.factory.map(\.name))
        #expect(lines.prefix(15).map { $0[2] } == HiSynthPreset.factoryStrings)
        #expect(lines.last?.prefix(2) == ["user", "Night: Bells"])
        var expected = HiSynthPreset.factory[2]
        expected.name = "Night: Bells"
        #expect(lines.last?.last == (try expected.encoded()))
    }
}
