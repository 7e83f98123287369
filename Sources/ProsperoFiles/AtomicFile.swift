#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one way to replace a file's contents: a reader sees the old file or the new one, never part
/// of one, a crash leaves one of the two, and nobody else can slip a file or a link into the write.
///
/// The bytes go to a temporary file in the target's directory, created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` (never an existing file, never through a symbolic link) under a hidden name
/// with 64 random bits from the system's generator (`.RANDOM.tmp`), so another user who can write the
/// directory can neither predict the name nor make the write land elsewhere. It is written, `fsync`ed,
/// renamed over the target, and the directory is `fsync`ed, all relative to one open descriptor of the
/// directory (a directory renamed meanwhile does not send the file somewhere else).
///
/// Permissions: a new file is created with `newFileMode` (default 0600: what Prospero writes is the user's
/// own), less the process's umask; a file that replaces an existing regular file takes that file's permission
/// bits (so a file the user made readable to others stays so). A symbolic link at the target is replaced by
/// the new file, never written through. On any failure before the rename the temporary file is removed and
/// the target is untouched.
public enum AtomicFile {
    /// How many fresh names are tried when one is already taken (with 64 random bits, only an attacker who
    /// could read this process's random numbers could take one).
    static let attempts = 8

    /// Replaces the file at `path` with `bytes` (see the type's notes).
    /// - Parameter newFileMode: the permission bits of a file that did not exist (less the umask).
    public static func write(_ bytes: [UInt8], to path: String, newFileMode: mode_t = 0o600) throws(AtomicFileError) {
        try write(bytes, to: path, newFileMode: newFileMode, temporaryName: randomTemporaryName)
    }

    /// ``write(_:to:newFileMode:)`` with the temporary file's names from `temporaryName` (given the target's
    /// file name), so that a test can plant something at the name it will try.
    package static func write(_ bytes: [UInt8], to path: String, newFileMode: mode_t = 0o600,
                              temporaryName: (String) -> String) throws(AtomicFileError) {
        let (directory, name) = split(path)
        func failure(_ step: String, _ code: Int32) -> AtomicFileError { AtomicFileError(path: path, step: step, code: code) }
        guard !name.isEmpty, name != ".", name != ".." else { throw failure("not a file name", EISDIR) }

        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw failure("open the directory \(directory)", errno) }
        defer { close(dir) }

        // An existing regular file's permission bits carry over; a link or nothing gets the new file's mode.
        var existing = stat()
        let keptMode: mode_t? = fstatat(dir, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
            ? existing.st_mode & 0o777 : nil

        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<attempts {
            temporary = temporaryName(name)
            fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, newFileMode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure("create \(join(directory, temporary))", errno) }

        func abandon(_ step: String, _ code: Int32) -> AtomicFileError {
            close(fd)
            unlinkat(dir, temporary, 0)
            return failure(step, code)
        }
        if let keptMode, fchmod(fd, keptMode) != 0 { throw abandon("keep the file's permissions", errno) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { writeSome(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw abandon("write", errno)
            }
            written += n
        }
        if fsync(fd) != 0 { throw abandon("sync", errno) }
        if close(fd) != 0 {
            let code = errno
            unlinkat(dir, temporary, 0)
            throw failure("close", code)
        }
        guard renameat(dir, temporary, dir, name) == 0 else {
            let code = errno
            unlinkat(dir, temporary, 0)
            throw failure("rename", code)
        }
        // The rename is durable once the directory is synced. The new file is in place whatever this returns
        // (some file systems cannot sync a directory), so a failure here is not the caller's to handle.
        _ = fsync(dir)
    }

    /// `.RANDOM.tmp` (16 hex digits): hidden, and not ending as the target does (a directory lister that reads
    /// `*.json` skips it); independent of the target's name, so a name near the 255-byte limit still has one.
    package static func randomTemporaryName(for name: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next(), radix: 16)
        return ".\(String(repeating: "0", count: 16 - random.count))\(random).tmp"
    }

    /// The directory (`.` when there is none, `/` at the root) and the file name of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    static func join(_ directory: String, _ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }
}

/// `write(2)` (inside ``AtomicFile`` the name is its own method's).
private func writeSome(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
