import Ariel
import Foundation

/// The CLI's `WAVSink`: a file on disk, created (or replaced) when the sink is made. Ariel never opens
/// files itself; renders stream through this, so memory does not grow with the length of the file.
final class FileWAVSink: WAVSink {
    let path: String
    private let handle: FileHandle

    /// Creates `path` (and its directory) empty.
    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: url)
    }

    deinit { try? handle.close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: Data(bytes))
    }

    func patch(at offset: UInt64, with bytes: [UInt8]) throws {
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes))
        try handle.seekToEnd()
    }

    /// Closes the file; nothing may be written after.
    func close() throws { try handle.close() }

    /// Removes the file (after a failed render, so no half-written WAV is left behind).
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
