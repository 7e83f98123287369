import Games
import Haptics
import InstrumentSettings
import Studio
import Testing

/// A monotonic clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    var now = 100.0
}

/// The three games as studio instruments: touches in, the model's state out (frames), haptic bursts
/// in the changes, audio through the engine's command ring. No audio renders in these tests unless a
/// test renders blocks itself, so the session clock runs on the injected monotonic clock, from 0.
@Suite("Game studio instruments")
struct GameStudioInstrumentTests {
    func touch(_ g: GameStudioInstrument, _ phase: StudioTouch.Phase, _ x: Double, _ y: Double, client: String = "c1") -> [String: StudioValue] {
        (try? g.touch(StudioTouch(id: 0, phase: phase, x: x, y: y), client: client)) ?? [:]
    }

    @Test("registered under their ids, in Home's list, with the seed's titles")
    func registry() throws {
        let ids = StudioInstrumentRegistry.standard().ids
        #expect(ids.contains("harmony") && ids.contains("vibe") && ids.contains("touch"))
        #expect(HarmonyStudioInstrument().displayName == "Harmony With Me")
        #expect(VibeStudioInstrument().stateJSON()["title"] == .string("Feel Your Vibe"))
        #expect(TouchStudioInstrument.id == "touch")
    }

    @Test("Touch for Music: the hold's height sets the volume (1 − y), the circle follows, down and up are felt")
    func touchVolume() throws {
        let clock = TestClock()
        let g = TouchStudioInstrument(seed: 1, now: { clock.now })
        _ = try g.apply(action: "touch.start", value: .null)
        clock.now += 0.5
        let down = touch(g, .down, 0.3, 0.25)
        let burst = try #require(down["haptic"]?.object)
        // One tap (transient 0.4 for 30 ms) at the touch's session time, 0.5 s after the start.
        #expect(burst["time"] == .number(0.5))
        #expect(burst["pattern"] == .array([.number(8)]))
        clock.now += 0.3
        let frame = try #require(g.frameJSON(now: clock.now))
        #expect(frame["volume"] == .number(0.75))
        #expect(frame["touching"] == .bool(true))
        let circle = try #require(frame["circle"]?.object)
        #expect(circle["x"] == .number(0.3) && circle["y"] == .number(0.25))
        // 0.3 s after the touch the 0.2 s ease has finished: the touching look.
        #expect(circle["scale"] == .number(TouchForMusic.touchingScale) && circle["opacity"] == .number(TouchForMusic.touchingOpacity))
        _ = touch(g, .move, 0.3, 0.6)
        #expect(g.frameJSON(now: clock.now)?["volume"] == .number(0.4))
        let up = touch(g, .cancel, 0, 0)
        #expect(up["haptic"] != nil)
        #expect(g.frameJSON(now: clock.now)?["touching"] == .bool(false))
    }

    @Test("Feel Your Vibe: crossings 0.25 s apart give 1/(2·0.25) = 2 Hz; x = 0.5 gives depth 0.1 + 0.9·0.5")
    func vibeSwipe() throws {
        let clock = TestClock()
        let g = VibeStudioInstrument(seed: 1, now: { clock.now })
        _ = try g.apply(action: "vibe.start", value: .null)
        // Up and down through the middle: each move crosses y = 0.5 exactly at the frame (y 0.5 is
        // reached by the second frame's side), so the crossings are the frames' times.
        _ = touch(g, .down, 0.5, 0.3)
        var bursts = 0
        for k in 1...5 {
            clock.now += 0.25
            let changes = touch(g, .move, 0.5, k % 2 == 1 ? 0.7 : 0.3)
            if changes["haptic"] != nil { bursts += 1 }
        }
        let frame = try #require(g.frameJSON(now: clock.now))
        let f = try #require(frame["frequency"]?.number)
        // Crossing times are interpolated at the middle of each 0.3 → 0.7 move: 0.25 s apart.
        #expect(abs(f - 2.0) < 1e-9)
        #expect(frame["depth"] == .number(0.55))
        #expect(frame["crossings"] == .number(5))
        #expect(bursts == 5)
    }

    @Test("Feel Your Vibe: the tremolo's pulses, made as time passes, are each taken once as a changed burst, in order")
    func vibePulsesAreTakenAsChanges() throws {
        let clock = TestClock()
        let g = VibeStudioInstrument(seed: 1, now: { clock.now })
        _ = try g.apply(action: "vibe.start", value: .null)
        var serials: [Int] = []
        // 2 s at the start rate (VibeLFO.startFrequency), frames at 30 Hz, no finger.
        for _ in 0..<60 {
            clock.now += 1.0 / 30
            _ = g.frameJSON(now: clock.now)
            for changes in g.takeChanges() {
                guard case .object(let burst)? = changes["haptic"], let serial = burst["serial"]?.number else { continue }
                serials.append(Int(serial))
            }
        }
        let cycles = Int((2 * VibeLFO.startFrequency).rounded(.down))
        #expect(serials.count >= cycles && serials.count <= cycles + 1, "\(serials.count) pulses in 2 s at \(VibeLFO.startFrequency) Hz")
        #expect(serials == serials.sorted() && Set(serials).count == serials.count)
        #expect(g.bursts.map(\.serial) == serials, "every burst made is taken, none twice")
        #expect(g.takeChanges().isEmpty)
    }

    @Test("Harmony With Me: the circle comes with the music; a tap inside plays a phrase and the heavy pulse, outside nothing")
    func harmonyHitAndMiss() throws {
        let clock = TestClock()
        let g = HarmonyStudioInstrument(seed: 7, now: { clock.now })
        _ = try g.apply(action: "harmony.start", value: .number(0.5))
        clock.now += 1
        #expect(g.frameJSON(now: clock.now)?["circle"] == .null)
        // The first circle is due at the second bar: 2.4 s (HarmonySchedule.song).
        clock.now += 1.5
        let frame = try #require(g.frameJSON(now: clock.now))
        let circle = try #require(frame["circle"]?.object)
        let x = try #require(circle["x"]?.number), y = try #require(circle["y"]?.number), r = try #require(circle["r"]?.number)
        // A miss: the opposite corner of the circle's bounding box, outside it (screen units: y scaled by 0.5).
        let missX = x > 0.5 ? x - 2 * r : x + 2 * r
        let miss = touch(g, .down, missX, y)
        #expect(miss["haptic"] == nil)
        _ = touch(g, .up, missX, y)
        #expect(g.frameJSON(now: clock.now)?["phrases"] == .number(0))
        // A hit: the centre.
        clock.now += 0.1
        let hit = touch(g, .down, x, y)
        let burst = try #require(hit["haptic"]?.object)
        #expect(abs((burst["time"]?.number ?? 0) - 2.6) < 1e-9)
        let expected = WebVibrationPattern(HapticManager.heavy(at: 0)).pattern.map { StudioValue.number(Double($0)) }
        #expect(burst["pattern"] == .array(expected))
        #expect(burst["events"]?.array?.count == HapticManager.heavyIntensities.count)
        #expect(g.frameJSON(now: clock.now)?["phrases"] == .number(1))
    }

    @Test("inactivity: the home button after the configured timeout; a touch hides it")
    func inactivity() throws {
        let clock = TestClock()
        let g = TouchStudioInstrument(seed: 1, inactivityTimeout: 1.5, now: { clock.now })
        _ = try g.apply(action: "touch.start", value: .null)
        clock.now += 1.4
        #expect(g.frameJSON(now: clock.now)?["home"] == .bool(false))
        clock.now += 0.2
        #expect(g.frameJSON(now: clock.now)?["home"] == .bool(true))
        #expect(touch(g, .down, 0.5, 0.5)["home"] == .bool(false))
    }

    @Test("a cancel (the session's lost socket) lifts the finger; a finger of another page is ignored while one plays")
    func cancelAndSecondClient() throws {
        let clock = TestClock()
        let g = TouchStudioInstrument(seed: 1, now: { clock.now })
        _ = try g.apply(action: "touch.start", value: .null)
        _ = touch(g, .down, 0.5, 0.2, client: "a")
        _ = touch(g, .down, 0.5, 0.9, client: "b")
        #expect(g.frameJSON(now: clock.now)?["volume"] == .number(0.8))
        _ = touch(g, .cancel, 0, 0, client: "a")
        #expect(g.frameJSON(now: clock.now)?["touching"] == .bool(false))
    }

    @Test("bad actions get typed errors naming the path")
    func badActions() {
        let g = VibeStudioInstrument(seed: 1)
        #expect(throws: StudioError.self) { try g.apply(action: "vibe.export", value: .string("wav")) }
        #expect(throws: StudioError.self) { try g.apply(action: "vibe.start", value: .number(50)) }
        #expect(throws: StudioError.self) { try g.apply(action: "vibe.dance", value: .null) }
        #expect(throws: StudioError.self) { try g.apply(set: "vibe.depth", value: .number(1)) }
        do { _ = try g.apply(action: "vibe.export", value: .number(1)) } catch { #expect(error.ref == "vibe.export") }
    }

    @Test("the hold's volume reaches the rendered engine through the command ring")
    func audioThroughRing() throws {
        let clock = TestClock()
        let g = TouchStudioInstrument(seed: 1, now: { clock.now })
        g.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        _ = try g.apply(action: "touch.start", value: .null)
        _ = touch(g, .down, 0.5, 0.25)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 256), right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        // Nothing rendered yet: the free clock runs on the monotonic one.
        clock.now += 0.2
        let free = g.audioTime(now: clock.now)
        #expect(abs(free - 0.2) < 1e-12)
        // 0.5 s: the 0.1 s volume ramp is over.
        for _ in 0..<94 {
            left.update(repeating: 0, count: 256); right.update(repeating: 0, count: 256)
            g.audio.render(frameCount: 256, left: left, right: right)
        }
        let snapshot = try #require(g.output.host.latestSnapshot().snapshot)
        #expect(abs(snapshot.musicLevel - 0.75) < 1e-6)
        #expect(g.output.renderedFrames == 94 * 256)
        // Rendering: the clock now follows the frames, continuing from where the free clock was (no jump
        // to the 0.5 s of audio rendered), then advancing by exactly one block per block.
        let t = g.audioTime(now: clock.now)
        #expect(t == free)
        left.update(repeating: 0, count: 256); right.update(repeating: 0, count: 256)
        g.audio.render(frameCount: 256, left: left, right: right)
        #expect(abs(g.audioTime(now: clock.now) - (free + 256.0 / 48_000)) < 1e-12)
    }
}
