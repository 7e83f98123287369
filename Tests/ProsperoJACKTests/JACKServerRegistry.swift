import Foundation
import Glibc

/// jackd2's machine-wide server registry (`/dev/shm/jack-shm-registry`), read to repair what killed servers leave.
///
/// The registry has 8 server slots. A server that exits cleanly frees its slot; one that is killed (SIGKILL, a
/// crash) leaves it taken, and only a later server of the same name reclaims it (jackd frees a dead server's slot
/// only when the name matches). Test servers have unique names, so each killed one took a slot for good: after
/// eight, every jackd on the machine exits at startup with "Too many servers already active" (seen 2026-11-29:
/// a test process whose libjack had wedged could not reach its new servers, the timed-out starts killed them, and
/// the rest of that run and of every run after it failed).
enum JACKServerRegistry {
    static let path = "/dev/shm/jack-shm-registry"
    static let slots = 8
    /// The header before the slots (magic, protocol, type, size, header and entry lengths) and one slot (a pid and a
    /// 257-byte name, padded to 4): jack2's `jack_shm_header_t` and `jack_shm_server_t` (common/shm.h).
    static let headerBytes = 24
    static let slotBytes = 264
    static let magic: UInt32 = 0x4A41_434B  // "JACK"

    /// The servers the registry names: each slot's pid and server name (the slot holds "jack-<uid>:<name>:").
    static func entries() -> [(pid: Int32, name: String)] {
        guard let data = FileManager.default.contents(atPath: path), data.count >= headerBytes + slots * slotBytes else { return [] }
        let bytes = [UInt8](data)
        func int32(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        guard int32(at: 0) == magic else { return [] }
        return (0..<slots).compactMap { slot in
            let offset = headerBytes + slot * slotBytes
            let pid = Int32(bitPattern: int32(at: offset))
            guard pid != 0 else { return nil }
            let raw = bytes[(offset + 4)..<(offset + slotBytes)].prefix { $0 != 0 }
            let prefix = String(decoding: raw, as: UTF8.self)
            // "jack-0:prospero-test-123-4:" → "prospero-test-123-4"
            let parts = prefix.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            return (pid, String(parts[1]))
        }
    }

    /// Names of this suite's servers (`prefix`) whose process is gone but whose slot is still taken.
    static func stale(prefix: String = "prospero-test-") -> [String] {
        entries().filter { entry in
            entry.name.hasPrefix(prefix) && kill(entry.pid, 0) != 0 && errno == ESRCH
        }.map(\.name)
    }

    /// Frees the slot a killed server named `name` left: a server of that name starts (reclaiming it) and stops
    /// cleanly (unregistering). Uses no libjack in this process, so it works when this process's libjack is stuck.
    static func reclaim(_ name: String) {
        guard let jackd = try? PeerProcess("jackd", ["--no-realtime", "-n", name, "-d", "dummy", "-r", "48000", "-p", "256"], server: nil)
        else { return }
        // Registered (its pid in a slot of that name), or exited: then stopped with SIGINT, which jackd handles
        // by unregistering; a generous wait, as a SIGKILL would take the slot again.
        _ = try? waitUntil("jackd \(name) to register", timeout: .seconds(60)) {
            !jackd.process.isRunning || entries().contains { $0.pid == jackd.pid && $0.name == name }
        }
        jackd.stop(signal: SIGINT, timeout: .seconds(20))
    }

    /// Reclaims every stale slot of this suite's servers; returns how many there were.
    @discardableResult
    static func reclaimStale() -> Int {
        let names = stale()
        for name in names { reclaim(name) }
        return names.count
    }
}
