import CJACKLoader
import Synchronization

/// libjack, loaded on first use so that a build needs neither JACK headers nor the library.
public enum JACKLibrary {
    /// Loads libjack once per process ("libjack.so.0", then "libjack.so", or `$PROSPERO_LIBJACK`).
    /// Throws ``JACKError/libraryMissing(detail:)`` when it is not installed.
    public static func load() throws(JACKError) {
        if let wedged = wedged.withLock({ $0 }) { throw .libraryWedged(detail: wedged) }
        switch pj_jack_load() {
        case 0: return
        case -2: throw .libraryIncomplete(detail: String(cString: pj_jack_load_error()))
        default: throw .libraryMissing(detail: String(cString: pj_jack_load_error()))
        }
    }

    /// Set once a call into libjack did not return in time (what it was): libjack then holds its global lock
    /// for good, so every later open would block forever; ``load()`` refuses instead.
    static let wedged = Mutex<String?>(nil)

    /// libjack's version string (e.g. "1.9.21"); requires a successful ``load()``.
    public static var version: String {
        String(cString: pj_jack_get_version_string())
    }
}
