import Glibc
import Synchronization

/// Standard output for live commands: every line is written at once with write(2), whatever the
/// output is connected to (a file or a pipe would otherwise hold it in a 4 KiB stdio buffer until
/// exit), and a closed pipe (EPIPE, with SIGPIPE ignored by ``SignalStop``) only silences further
/// output instead of ending the process before its note-offs.
public enum StandardOutput {
    private static let closed = Atomic<Bool>(false)

    /// Writes `text` and a newline now.
    public static func line(_ text: String) { write(text + "\n") }

    /// Writes `text` now (after anything `print` still buffers, to keep the order).
    public static func write(_ text: String) {
        fflush(nil)
        guard !closed.load(ordering: .relaxed) else { return }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    closed.store(true, ordering: .relaxed)  // EPIPE or a full disk: stop writing, keep running
                    return
                }
                offset += n
            }
        }
    }
}
