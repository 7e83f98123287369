import ArgumentParser
import Enobarbus
import Foundation

/// Reads an Enobarbus recording file for `hecate --input` and `hands --input`: the size is checked
/// against the reader's limit before the file is read, and the reader's warnings (shortened gaps) go
/// to stderr.
enum RecordingFile {
    static func load(_ path: String, limits: RecordingLimits = RecordingLimits()) throws -> Recording {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= limits.maximumBytes else {
            throw ValidationError("recording '\(path)': \(RecordingError(line: 1, .fileTooLarge(bytes: size, limit: limits.maximumBytes)))")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ValidationError("cannot read recording '\(path)': \(error.localizedDescription)")
        }
        let result: RecordingReader.Result
        do { result = try RecordingReader.read(Array(data), limits: limits) } catch {
            throw ValidationError("recording '\(path)': \(error)")
        }
        for warning in result.warnings.prefix(10) {
            FileHandle.standardError.write(Data("warning: \(path): \(warning)\n".utf8))
        }
        if result.warnings.count > 10 {
            FileHandle.standardError.write(Data("warning: \(path): \(result.warnings.count - 10) more gaps shortened\n".utf8))
        }
        return result.recording
    }
}
