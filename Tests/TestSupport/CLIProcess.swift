import Foundation
import Glibc

/// Runs a command-line program (usually the `prospero` executable) the way a user does, for the CLI
/// tests: to completion with its stdout and stderr kept apart, or started in the background with the
/// first line it prints (a banner naming the port it bound). Both pipes are drained on their own
/// threads, so a chatty child can never block on a full pipe.
public enum CLIProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    /// Runs `executable` with `arguments` to its end.
    /// - Parameters:
    ///   - directory: the working directory (nil: this process's).
    ///   - environment: variables added to (or replacing in) this process's environment.
    public static func run(_ executable: URL, _ arguments: [String], directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = PipeDrain.reading(out), error = PipeDrain.reading(err)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output.wait(), as: UTF8.self),
                      error: String(decoding: error.wait(), as: UTF8.self))
    }

    /// Starts `executable` in the background (stderr discarded) and returns it with the first line it
    /// printed; the caller stops it by its pid. The rest of its stdout stays readable from `output`.
    public static func startWithBanner(_ executable: URL, _ arguments: [String]) throws -> (process: Process, banner: String, output: Pipe) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = ""
        while !banner.contains("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            banner += String(decoding: data, as: UTF8.self)
        }
        return (process, banner, out)
    }

    /// The port in a banner's "127.0.0.1:PORT" (the last one named), nil when there is none.
    public static func loopbackPort(in banner: String) -> Int? {
        guard banner.contains("127.0.0.1:") else { return nil }
        return banner.split(separator: "127.0.0.1:").last.flatMap { Int($0.prefix { $0.isNumber }) }
    }
}

/// The data a background read collected, handed over once.
public final class PipeDrain: @unchecked Sendable {
    /// Starts reading `pipe` to its end on another thread (so a full pipe cannot block the child).
    public static func reading(_ pipe: Pipe) -> PipeDrain {
        let drain = PipeDrain()
        Thread.detachNewThread { drain.finish(pipe.fileHandleForReading.readDataToEndOfFile()) }
        return drain
    }

    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    private func finish(_ d: Data) { data = d; done.signal() }
    /// Waits for the end of the pipe; returns everything read.
    public func wait() -> Data { done.wait(); return data }
}
