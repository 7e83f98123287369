import CEvdevRumble
import Foundation
import Haptics

#if canImport(Glibc)
import Glibc
#endif

/// Plays haptic patterns on a Linux game controller through evdev force feedback (`FF_RUMBLE`).
///
/// The pattern is rendered by `RumbleTrack` (strong = I·(1−S), weak = I·S); one effect slot is uploaded
/// once and replaced for each segment, then played at the segment's start on the monotonic clock, so a
/// controller with few slots plays any pattern. Magnitudes become 0…65535; durations milliseconds.
public final class EvdevRumblePlayer {
    /// One event device that can rumble.
    public struct Controller: Sendable, Hashable {
        public var path: String
        public var name: String
    }

    public let path: String
    public let name: String
    let fd: Int32
    var effect: Int32 = -1

    /// Opens `path` and checks that it rumbles.
    public init(path: String) throws(EvdevRumbleError) {
        let fd = prospero_evdev_open(path)
        guard fd >= 0 else { throw EvdevRumbleError(device: path, .cannotOpen(errno: -fd)) }
        let rumble = prospero_evdev_has_rumble(fd)
        guard rumble == 1 else {
            prospero_evdev_close(fd)
            throw EvdevRumbleError(device: path, rumble < 0 ? .cannotOpen(errno: -rumble) : .noRumble)
        }
        self.fd = fd
        self.path = path
        name = Self.name(fd)
    }

    deinit {
        if effect >= 0 {
            _ = prospero_evdev_play(fd, effect, 0)
            _ = prospero_evdev_erase(fd, effect)
        }
        prospero_evdev_close(fd)
    }

    static func name(_ fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard prospero_evdev_name(fd, &buffer, Int32(buffer.count)) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every `/dev/input/event*` that opens and rumbles, in name order.
    public static func controllers(in directory: String = "/dev/input") -> [Controller] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .compactMap { n in
                let path = directory + "/" + n
                guard let player = try? EvdevRumblePlayer(path: path) else { return nil }
                return Controller(path: path, name: player.name)
            }
    }

    /// Plays one rumble (magnitudes 0…1, length in seconds) now.
    public func rumble(strong: Double, weak: Double, length: Double) throws(EvdevRumbleError) {
        func magnitude(_ v: Double) -> UInt16 { UInt16((min(max(v.isFinite ? v : 0, 0), 1) * 65_535).rounded()) }
        let ms = UInt16(min(max((length * 1000).rounded(), 1), 65_535))
        let id = prospero_evdev_upload_rumble(fd, effect, magnitude(strong), magnitude(weak), ms)
        guard id >= 0 else { throw EvdevRumbleError(device: path, .effectFailed(errno: -id)) }
        effect = id
        let played = prospero_evdev_play(fd, id, 1)
        guard played == 0 else { throw EvdevRumbleError(device: path, .effectFailed(errno: -played)) }
    }

    /// Plays a rumble track in real time (blocks until its end).
    public func play(_ track: RumbleTrack) throws(EvdevRumbleError) {
        let start = Self.now()
        for segment in track.segments {
            Self.sleep(until: start + segment.start)
            try rumble(strong: segment.strong, weak: segment.weak, length: segment.duration)
        }
        if let last = track.segments.last { Self.sleep(until: start + last.start + last.duration) }
        if effect >= 0 { _ = prospero_evdev_play(fd, effect, 0) }
    }

    /// Plays a haptic pattern (rendered by `RumbleTrack`); returns what the rendering lost.
    @discardableResult
    public func play(_ pattern: HapticPattern) throws(EvdevRumbleError) -> [HapticRenderWarning] {
        let track = RumbleTrack(pattern)
        try play(track)
        return track.warnings
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func sleep(until t: Double) {
        let wait = t - now()
        guard wait > 0 else { return }
        var ts = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1e9))
        nanosleep(&ts, nil)
    }
}
