import Foundation

extension Process {
    /// Runs it (stop signals unblocked, see ``runWithStopSignalsUnblocked()``) with stdout and stderr going
    /// to a new file at `log` and stdin closed, as from a script with its output to a file. A file, not a
    /// pipe: a chatty child can never block on a full pipe.
    public func runLogging(to log: URL) throws {
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        standardOutput = handle
        standardError = handle
        standardInput = FileHandle.nullDevice
        try runWithStopSignalsUnblocked()
    }
}
