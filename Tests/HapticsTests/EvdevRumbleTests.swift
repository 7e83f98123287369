import CEvdevRumble
import Foundation
import Haptics
import HapticsEvdev
import ProsperoTestSupport
import Synchronization
import Testing

@Suite(.ownThread) struct EvdevRumbleTests {
    @Test func missingDevicesSayWhatIsWrong() {
        #expect(throws: EvdevRumbleError(device: "/dev/input/no-such-event", .cannotOpen(errno: 2))) {
            try EvdevRumblePlayer(path: "/dev/input/no-such-event")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-input-\(getpid())")
        try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(EvdevRumblePlayer.controllers(in: empty.path).isEmpty)
        #expect("\(EvdevRumbleError(device: "", .noController))".contains("no game controller"))
        // /dev/null opens but has no force feedback.
        #expect(throws: EvdevRumbleError.self) { try EvdevRumblePlayer(path: "/dev/null") }
    }

    /// Plays the heavy pattern on a virtual uinput controller and checks what the kernel delivered.
    @Test func rumblesAVirtualController() throws {
        try TestPeers.requireDevice("/dev/uinput", "uinput (modprobe uinput; root or the uinput group)",
                                    driverLoaded: TestPeers.miscDeviceMinor("uinput") != nil)
        let device = prospero_uinput_create_rumble("Prospero test rumble")
        try #require(device >= 0, "uinput device: errno \(-device)")
        defer { prospero_uinput_destroy(device) }
        var sysname = [CChar](repeating: 0, count: 64)
        try #require(prospero_uinput_sysname(device, &sysname, 64) == 0)
        let sys = String(decoding: sysname.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The event node appears once udev (or devtmpfs) has made it.
        var path: String?
        try Eventually.holds("the event node of \(sys)") {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/input/\(sys)")) ?? []
            path = entries.first { $0.hasPrefix("event") }.map { "/dev/input/\($0)" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
            return path != nil
        }
        let eventPath = try #require(path)
        // The uinput owner must answer uploads while the player waits for them: a second thread serves.
        let stop = Atomic<Bool>(false)
        let counts = Mutex((uploads: Int32(0), plays: Int32(0), strongest: Int32(0)))
        let server = Thread {
            var u: Int32 = 0, p: Int32 = 0, s: Int32 = 0
            while !stop.load(ordering: .acquiring) {
                _ = prospero_uinput_service(device, &u, &p, &s)
                usleep(500)
            }
            _ = prospero_uinput_service(device, &u, &p, &s)
            counts.withLock { $0 = (u, p, s) }
        }
        server.start()
        let player = try EvdevRumblePlayer(path: eventPath)
        #expect(player.name == "Prospero test rumble")
        let warnings = try player.play(HapticManager.heavy())
        #expect(warnings.contains(.sharpnessApproximated))
        // Each upload was answered before play went on, and each play event is queued on the uinput device when
        // written: the server's last pass after the stop reads them all.
        stop.store(true, ordering: .releasing)
        while !server.isFinished { usleep(1_000) }
        let (uploads, plays, strongest) = counts.withLock { $0 }
        // Five segments: five uploads (one slot, replaced) and five plays; the first at strong = 1 × 0.6.
        #expect(uploads == 5 && plays == 5)
        #expect(strongest == Int32((0.6 * 65_535).rounded()))
    }
}
