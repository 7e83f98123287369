import Foundation
import Studio

extension StudioConfiguration {
    /// The environment variable that carries a chosen token when no token file is given.
    public static let tokenEnvironmentVariable = "PROSPERO_STUDIO_TOKEN"

    /// The most of a token file read: a token is at most 128 bytes, and its first line must fit in this.
    static let tokenFileReadLimit = 4096

    /// The token the user chose, never from the command line (where every user of the machine can read it, in
    /// `ps` and `/proc/PID/cmdline`, for as long as the studio runs): the first line of `file`, whitespace
    /// trimmed, when a file is given; else ``tokenEnvironmentVariable`` in `environment` (trimmed; empty counts
    /// as unset); else nil (the studio then makes a random token beyond loopback and needs none on it).
    ///
    /// A file that cannot be read, has an empty first line or a first line that is not a token
    /// (``StudioToken/isValid(_:)``) is refused naming the file, as is a variable that is not a token; the
    /// message never repeats what was read.
    public static func chosenToken(file: String?, environment: [String: String]) throws(StudioAppError) -> String? {
        let rule = "8…128 letters, digits, '-', '_' or '.'"
        if let file {
            let line = try firstLine(of: file).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else {
                throw StudioAppError(.invalid, "--token-file \(file): the file is empty; its first line must be the token (\(rule))")
            }
            guard StudioToken.isValid(line) else {
                throw StudioAppError(.invalid, "--token-file \(file): the first line is not a token: it must be \(rule)")
            }
            return line
        }
        guard let value = environment[tokenEnvironmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines),
              !value.isEmpty else { return nil }
        guard StudioToken.isValid(value) else {
            throw StudioAppError(.invalid, "\(tokenEnvironmentVariable) is not a token: it must be \(rule)")
        }
        return value
    }

    /// The first line of `file` (all of it when it has one line), from at most ``tokenFileReadLimit`` bytes,
    /// read once (a pipe such as `--token-file <(pass studio)` works).
    static func firstLine(of file: String) throws(StudioAppError) -> String {
        func unreadable(_ why: String) -> StudioAppError { StudioAppError(.invalid, "--token-file \(file): cannot read it (\(why))") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            throw unreadable("a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw unreadable(FileManager.default.fileExists(atPath: file) ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: tokenFileReadLimit) ?? Data() } catch { throw unreadable("\(error.localizedDescription)") }
        let line = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
        guard let text = String(data: line, encoding: .utf8) else {
            throw StudioAppError(.invalid, "--token-file \(file): the first line is not text")
        }
        return text
    }
}
