#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file ``AtomicFile`` could not write: the file, the step that failed and the system's reason.
/// The file as it was (or its absence) is left in place, and no temporary file stays behind.
public struct AtomicFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file that was to be written.
    public let path: String
    /// What was being done: `open the directory …`, `create …`, `write`, `sync`, `rename`.
    public let step: String
    /// The `errno` of the failed call.
    public let code: Int32

    public init(path: String, step: String, code: Int32) {
        self.path = path
        self.step = step
        self.code = code
    }

    /// The system's words for ``code`` (`strerror`).
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "cannot write \(path): \(step): \(reason)" }
}
