import CJACKLoader

/// libjack, loaded on first use so that a build needs neither JACK headers nor the library.
public enum JACKLibrary {
    /// Loads libjack once per process ("libjack.so.0", then "libjack.so", or `$PROSPERO_LIBJACK`).
    /// Throws ``JACKError/libraryMissing(detail:)`` when it is not installed.
    public static func load() throws(JACKError) {
        switch pj_jack_load() {
        case 0: return
        case -2: throw .libraryIncomplete(detail: String(cString: pj_jack_load_error()))
        default: throw .libraryMissing(detail: String(cString: pj_jack_load_error()))
        }
    }

    /// libjack's version string (e.g. "1.9.21"); requires a successful ``load()``.
    public static var version: String {
        String(cString: pj_jack_get_version_string())
    }
}
