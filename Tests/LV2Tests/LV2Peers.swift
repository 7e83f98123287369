import Ariel
import Foundation
import ProsperoTestSupport
import Testing

/// What the LV2 tests run against: the bundles `scripts/lv2-install` made (scripts/test installs them into
/// a temporary directory and names it in PROSPERO_LV2_BUNDLES) and the lilv test host, built here with gcc.
enum LV2Peers {
    /// The directory holding the three bundles, or nil when this run has none.
    static var bundles: String? {
        guard let dir = ProcessInfo.processInfo.environment["PROSPERO_LV2_BUNDLES"], !dir.isEmpty,
              FileManager.default.fileExists(atPath: dir + "/prospero-hisynth.lv2/manifest.ttl") else { return nil }
        return dir
    }

    static func requireBundles() throws -> String {
        try TestPeers.require(bundles, "the LV2 bundles (scripts/test installs them; or scripts/lv2-install DIR, then PROSPERO_LV2_BUNDLES=DIR)")
    }

    /// The test host, compiled once per test process.
    static let host: Result<String, any Error> = Result {
        let source = try #require(Bundle.module.url(forResource: "lv2host", withExtension: "c", subdirectory: "Fixtures"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lv2host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let output = dir.appendingPathComponent("lv2host").path
        let flags = try TestPeers.runBlocking("pkg-config", ["--cflags", "--libs", "lilv-0"])
        guard flags.status == 0 else { throw HostError(description: "pkg-config lilv-0 failed: \(flags.output)") }
        let args = ["-O1", "-o", output, source.path] + flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
        let built = try TestPeers.runBlocking("gcc", args, timeout: 120)
        guard built.status == 0 else { throw HostError(description: "gcc lv2host.c failed: \(built.output)") }
        return output
    }

    struct HostError: Error, CustomStringConvertible { var description: String }

    static func requireHost() throws -> String {
        try TestPeers.require(TestPeers.executable("gcc") != nil && TestPeers.executable("pkg-config") != nil,
                              "gcc, pkg-config and liblilv-dev (apt-get install gcc pkg-config liblilv-dev)")
        return try host.get()
    }

    /// Runs `tool` with LV2_PATH set to `bundles` only (and nothing of the Swift toolchain on the library path).
    static func run(_ tool: String, _ arguments: [String], bundles: String, timeout: Double = 120) throws -> TestPeers.Finished {
        let env = "/usr/bin/env"
        return try TestPeers.runBlocking(env, ["-u", "LD_LIBRARY_PATH", "LV2_PATH=\(bundles)", tool] + arguments, timeout: timeout)
    }

    /// One instance's result from the host: latency, allocations in run(), State string, audio (left, right).
    struct Rendered {
        var latency: Int?
        var allocations: Int?
        var state: String?
        var left: [Float] = []
        var right: [Float] = []
    }

    /// Plays `events` (absolute frame, bytes) through each plugin of `uris` in one host process.
    static func render(
        _ uris: [String], events: [(frame: Int64, bytes: [UInt8])] = [], frames: Int, rate: Double = 48_000,
        blocks: [Int] = [256], preset: String? = nil, set: [String: Float] = [:], restore: String? = nil, save: Bool = false
    ) throws -> [Rendered] {
        let bundles = try requireBundles()
        let host = try requireHost()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lv2run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let eventFile = dir.appendingPathComponent("events.txt")
        let lines = events.map { e in "\(e.frame) " + (e.bytes + [0, 0, 0]).prefix(3).map(String.init).joined(separator: " ") }
        try (lines.joined(separator: "\n") + "\n").write(to: eventFile, atomically: true, encoding: .utf8)
        var args = ["--events", eventFile.path, "--frames", "\(frames)", "--rate", "\(rate)",
                    "--blocks", blocks.map(String.init).joined(separator: ","), "--out", dir.appendingPathComponent("out").path]
        if let preset { args += ["--preset", preset] }
        for (symbol, value) in set.sorted(by: { $0.key < $1.key }) { args += ["--set", "\(symbol)=\(value)"] }
        if let restore { args += ["--restore", restore] }
        if save { args.append("--save") }
        let finished = try run(host, args + uris, bundles: bundles, timeout: 300)
        guard finished.status == 0 else { throw HostError(description: "lv2host failed (\(finished.status)): \(finished.output)") }
        var results = Array(repeating: Rendered(), count: uris.count)
        for line in finished.output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count >= 2, let k = Int(parts[1]), k < uris.count else { continue }
            switch parts[0] {
            case "latency": results[k].latency = parts.count > 2 ? Int(Double(parts[2]) ?? -1) : nil
            case "allocations": results[k].allocations = parts.count > 2 ? Int(parts[2]) : nil
            case "state": results[k].state = parts.count > 2 ? parts[2] : ""
            default: break
            }
        }
        for k in uris.indices {
            let data = try Data(contentsOf: dir.appendingPathComponent("out.\(k)"))
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            results[k].left = Array(samples[0..<frames])
            results[k].right = Array(samples[frames..<(2 * frames)])
        }
        return results
    }

    /// A MIDI file's events at the frames the offline renderer plays them (the same sequencer, 256-frame blocks).
    static func events(of file: MIDIFile, sampleRate: Double, chasesControllers: Bool) -> [(frame: Int64, bytes: [UInt8])] {
        let sequencer = MIDISequencer(file: file, sampleRate: sampleRate)
        sequencer.chasesControllers = chasesControllers
        var out: [(Int64, [UInt8])] = []
        var start: Int64 = 0
        while !sequencer.isFinished {
            for event in sequencer.nextBlock(frameCount: 256) {
                guard let m = event.message else { continue }
                out.append((start + Int64(event.frameOffset), [m.status, m.data1, m.data2]))
            }
            start += 256
        }
        return out
    }

    /// The prospero executable of this build.
    static func prospero() throws -> String {
        try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build -c release)").path
    }

    /// A rendered WAV (float32) as left and right.
    static func readWAV(_ path: String) throws -> (left: [Float], right: [Float]) {
        let wav = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        return (wav.channels[0], wav.channels[1])
    }
}
