import Haptics
import Testing

@Suite("Haptics's landing example")
struct HapticsLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // A crisp tap, then half a second of a soft, dull buzz.
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 0.8),
            .continuous(at: 0.1, duration: 0.5, intensity: 0.4, sharpness: 0.2),
        ])

        // One pattern, rendered for each kind of device.
        let ahap = pattern.ahapJSON()
        let browser = WebVibrationPattern(pattern)
        let controller = RumbleTrack(pattern)
        let reread = try HapticPattern(ahap: ahap)

        #expect(reread == pattern)
        #expect(ahap.contains("HapticTransient") && ahap.contains("HapticContinuous"))
        #expect(!browser.pattern.isEmpty && browser.pattern.allSatisfy { $0 >= 0 })
        #expect(!controller.segments.isEmpty)
        #expect(controller.segments.allSatisfy { $0.strong >= 0 && $0.strong <= 1 && $0.weak >= 0 && $0.weak <= 1 })
    }
}
