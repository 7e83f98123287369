import Foundation
import Testing

/// Real programs used as test peers (faust, mido, python-osc, oscsend, jackd…), listed per module
/// in scripts/deps/*.apt and *.pip.
///
/// A test that needs a missing peer skips with a message, unless `PROSPERO_REQUIRE_PEERS=1`
/// (set by scripts/test), in which case it records a failure, so CI can never pass by skipping.
public enum TestPeers {
    /// Whether missing peers fail the test instead of skipping it.
    public static let required = ProcessInfo.processInfo.environment["PROSPERO_REQUIRE_PEERS"] == "1"

    /// The full path of an executable on PATH, or nil.
    public static func executable(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Returns true when `available`; otherwise skips (prints why) or, under PROSPERO_REQUIRE_PEERS=1,
    /// records an issue naming what to install.
    public static func ready(_ available: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if available { return true }
        if required {
            Issue.record("\(what) is required (PROSPERO_REQUIRE_PEERS=1) but missing", sourceLocation: sourceLocation)
        } else {
            print("skipping: \(what) not installed")
        }
        return false
    }

    /// Returns true when the kernel device at `path` exists and opens for reading and writing;
    /// otherwise skips with a message. A device (/dev/uinput, a controller) is not a package scripts/test
    /// can install, so it skips even under PROSPERO_REQUIRE_PEERS=1.
    public static func deviceReady(_ path: String, _ what: String) -> Bool {
        if FileManager.default.isReadableFile(atPath: path) && FileManager.default.isWritableFile(atPath: path) { return true }
        print("skipping: \(what) (\(path)) not available")
        return false
    }
}
