import Foundation
import ProsperoTestSupport

/// Signals and peers shared by the Oberon suites.
enum OberonTestSupport {
    /// A 1 kHz stereo sine whose segments have peak levels `levels` (dBFS, both channels) for
    /// `seconds` each, continuous in phase: the EBU Tech 3341/3342 test signals.
    static func sineSegments(levels: [Double], seconds: [Double], sampleRate: Double = 48_000, frequency: Double = 1_000) -> [Float] {
        var out: [Float] = []
        var n = 0
        for (level, duration) in zip(levels, seconds) {
            let amplitude = pow(10, level / 20)
            let count = Int((duration * sampleRate).rounded())
            for _ in 0..<count {
                out.append(Float(amplitude * sin(2 * Double.pi * frequency * Double(n) / sampleRate)))
                n += 1
            }
        }
        return out
    }

    /// Runs python3 with `script` and `arguments`; returns stdout, or nil when python3 (or a module the
    /// script imports) is missing, which `TestPeers.require` turns into a skip or a failure.
    static func python(_ script: String, _ arguments: [String] = []) -> String? {
        guard let python = TestPeers.executable("python3") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether python3 can import `module`.

    /// A fresh temporary path ending in `suffix`.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("oberon-\(UUID().uuidString)\(suffix)").path
    }
}
