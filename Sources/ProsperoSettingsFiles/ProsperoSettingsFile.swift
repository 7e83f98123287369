#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InstrumentSettings
import ProsperoFiles

/// The settings file on disk: `$XDG_CONFIG_HOME/prospero/settings.json` (an absolute
/// `XDG_CONFIG_HOME`, as the XDG base directory spec requires), else `~/.config/prospero/settings.json`.
///
/// Reading never fails the caller: a missing file gives the defaults; a file too large, malformed or
/// with a bad field gives the defaults plus a warning naming the field, and the file is renamed
/// to `settings.json.bad-<unix time>` so the next save does not destroy what the player may want to
/// repair. Writing is ``AtomicFile``'s: a crash leaves the old file or the new one, never a partial one,
/// and the temporary file beside it is created exclusively, never through a link, readable by the user only.
public struct ProsperoSettingsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The standard location for `environment` (default: the process's).
    public init(environment: [String: String]) {
        self.init(path: Self.defaultPath(environment: environment))
    }

    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return join(xdg, "prospero/settings.json")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return join(home, ".config/prospero/settings.json")
    }

    static func join(_ a: String, _ b: String) -> String { a.hasSuffix("/") ? a + b : a + "/" + b }

    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// What `load()` found.
    public struct Loaded: Sendable {
        public var settings: ProsperoSettings
        /// Whether a usable file was there.
        public var found: Bool
        /// Why the file was not used, and where it was kept aside (nil: it was fine or missing).
        public var warning: String?
    }

    /// Reads the settings (see the type's notes: never throws, never crashes).
    public func load(now: Int = Int(time(nil))) -> Loaded {
        let bytes: [UInt8]
        switch readBytes() {
        case .missing: return Loaded(settings: ProsperoSettings(), found: false, warning: nil)
        case .unreadable(let why):
            return Loaded(settings: ProsperoSettings(), found: false, warning: "settings: cannot read \(path) (\(why)); using the defaults")
        case .bytes(let b): bytes = b
        }
        do throws(ProsperoSettingsError) {
            return Loaded(settings: try ProsperoSettings(json: bytes), found: true, warning: nil)
        } catch {
            let aside = "\(path).bad-\(now)"
            let kept = rename(path, aside) == 0
            return Loaded(settings: ProsperoSettings(), found: false,
                          warning: "settings: \(path): \(error); using the defaults"
                            + (kept ? " (the file is kept as \(aside))" : ""))
        }
    }

    enum ReadResult { case missing, unreadable(String), bytes([UInt8]) }

    /// At most `maximumBytes + 1` bytes (one more tells a file over the limit).
    func readBytes() -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            return e == ENOENT ? .missing : .unreadable(Self.reason(e))
        }
        defer { close(fd) }
        let limit = ProsperoSettings.maximumBytes + 1
        var buffer = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, limit - total) }
            if n < 0 {
                if errno == EINTR { continue }
                return .unreadable(Self.reason(errno))
            }
            if n == 0 { break }
            total += n
        }
        return .bytes(Array(buffer.prefix(total)))
    }

    /// Writes `settings` through ``AtomicFile`` (an exclusive, no-follow temporary of mode 0600 beside the file,
    /// fsync, rename, fsync of the directory): a new settings file is 0600, one that existed keeps its mode.
    public func save(_ settings: ProsperoSettings) throws(ProsperoSettingsFileError) {
        try save(settings, temporaryName: nil)
    }

    /// ``save(_:)`` with the temporary file's names from `temporaryName` (nil: random ones), for tests.
    package func save(_ settings: ProsperoSettings, temporaryName: ((String) -> String)?) throws(ProsperoSettingsFileError) {
        try makeDirectory(directory)
        let bytes = Array(settings.jsonText.utf8)
        do throws(AtomicFileError) {
            if let temporaryName {
                try AtomicFile.write(bytes, to: path, temporaryName: temporaryName)
            } else {
                try AtomicFile.write(bytes, to: path)
            }
        } catch {
            throw ProsperoSettingsFileError(path: path, step: error.step, reason: error.reason)
        }
    }

    /// `mkdir -p` with 0700 for new directories (settings are the player's own).
    func makeDirectory(_ dir: String) throws(ProsperoSettingsFileError) {
        var isDirectory = stat()
        if stat(dir, &isDirectory) == 0 { return }
        let parent = dir.lastIndex(of: "/").map { String(dir[..<$0]) } ?? ""
        if !parent.isEmpty && parent != dir { try makeDirectory(parent) }
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw failure("create directory \(dir)", errno) }
    }

    func failure(_ step: String, _ code: Int32) -> ProsperoSettingsFileError {
        ProsperoSettingsFileError(path: path, step: step, reason: Self.reason(code))
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
