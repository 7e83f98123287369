import Games
import Haptics
import InstrumentSettings
import Studio
import Synchronization
import Testing

/// The protocol's clock sync (`clock` → `clock`), the games' session clock, and the haptic track's exports.
@Suite("Game clock sync and exports")
struct GameClockSyncTests {
    func code(_ text: String) -> String? {
        do { _ = try StudioClientMessage.parse(Array(text.utf8)); return nil } catch { return error.code }
    }

    @Test("clock parses with t in ms; anything else is a bad_message naming clock")
    func parse() throws {
        #expect(try StudioClientMessage.parse(Array(#"{"type":"clock","t":1234.5}"#.utf8)) == .clock(t: 1234.5))
        #expect(try StudioClientMessage.parse(Array(#"{"type":"clock","t":0}"#.utf8)) == .clock(t: 0))
        #expect(code(#"{"type":"clock"}"#) == "bad_message")
        #expect(code(#"{"type":"clock","t":"12"}"#) == "bad_message")
        #expect(code(#"{"type":"clock","t":null}"#) == "bad_message")
        #expect(code(#"{"type":"clock","t":-1}"#) == "bad_message")
        #expect(code(#"{"type":"clock","t":1e13}"#) == "bad_message")
        #expect(code(#"{"type":"clock","t":1e400}"#) != nil)
        do { _ = try StudioClientMessage.parse(Array(#"{"type":"clock","t":-5}"#.utf8)) } catch { #expect(error.ref == "clock") }
    }

    final class Outbox: @unchecked Sendable {
        let texts = Mutex<[String]>([])
        var send: StudioSession.Outbox { { m in if case .text(let t) = m { self.texts.withLock { $0.append(t) } } } }
        func last(_ type: String) -> [String: StudioValue]? {
            texts.withLock { $0.compactMap { try? StudioValue(json: $0).object }.last { $0["type"] == .string(type) } }
        }
    }

    @Test("the session answers clock with t echoed and the active game's session clock; null for an instrument without one")
    func sessionAnswers() throws {
        let clock = TestClock()
        clock.now = 50
        let game = VibeStudioInstrument(seed: 1, now: { clock.now })
        let session = StudioSession(instruments: [StudioToneInstrument(), game])
        let out = Outbox()
        let c = session.connect(outbox: out.send)
        session.receive(Array(#"{"type":"hello","client":null}"#.utf8), from: c, now: 50)
        session.receive(Array(#"{"type":"clock","t":777.25}"#.utf8), from: c, now: 51)
        let toneReply = try #require(out.last("clock"))
        #expect(toneReply["t"] == .number(777.25) && toneReply["audio"] == .null && toneReply["server"] == .number(51_000))
        session.receive(Array(#"{"type":"select","instrument":"vibe"}"#.utf8), from: c, now: 51)
        // The game's clock started at 50 (its creation) and runs free: at 53.5 it reads 3.5 s.
        session.receive(Array(#"{"type":"clock","t":900}"#.utf8), from: c, now: 53.5)
        let reply = try #require(out.last("clock"))
        #expect(reply["t"] == .number(900) && reply["audio"] == .number(3.5) && reply["v"] == .number(1))
        session.receive(Array(#"{"type":"clock","t":"x"}"#.utf8), from: c, now: 54)
        #expect(out.last("error")?["ref"] == .string("clock"))
    }

    @Test("the session clock: free before audio, then the frames, joined without a jump and never backwards")
    func clockJoins() {
        var c = GameStudioClock(start: 10)
        #expect(c.time(now: 10, frames: 0, sampleRate: 48_000) == 0)
        #expect(c.time(now: 12, frames: 0, sampleRate: 48_000) == 2)
        #expect(!c.rendering)
        // Audio starts: 480 frames (10 ms) rendered; the clock continues from 2 s.
        #expect(c.time(now: 12.01, frames: 480, sampleRate: 48_000) == 2)
        #expect(c.rendering)
        #expect(abs(c.time(now: 12.02, frames: 960, sampleRate: 48_000) - 2.01) < 1e-12)
        // Audio stops: after the stall time the clock runs free again, from the last block's time (12.02 s).
        let held = c.time(now: 12.1, frames: 960, sampleRate: 48_000)
        #expect(abs(held - 2.01) < 1e-12)
        let later = c.time(now: 13, frames: 960, sampleRate: 48_000)
        #expect(!c.rendering)
        #expect(later >= held && abs(later - (2.01 + (13 - 12.02))) < 1e-9)
        #expect(c.time(now: .nan, frames: 960, sampleRate: 48_000) == later)
    }

    @Test("the haptic track exports as AHAP the haptics module parses, and as Android waveform JSON")
    func exports() throws {
        let clock = TestClock()
        let g = TouchStudioInstrument(seed: 1, now: { clock.now })
        _ = try g.apply(action: "touch.start", value: .null)
        clock.now += 1
        _ = try g.touch(StudioTouch(id: 0, phase: .down, x: 0.5, y: 0.5), client: "c")
        clock.now += 0.5
        _ = try g.touch(StudioTouch(id: 0, phase: .up, x: 0.5, y: 0.5), client: "c")
        let ahap = try #require(try g.apply(action: "touch.export", value: .string("ahap"))["export"]?.object)
        #expect(ahap["format"] == .string("ahap") && ahap["name"] == .string("prospero-touch.ahap") && ahap["events"] == .number(2))
        let pattern = try HapticPattern(ahap: try #require(ahap["text"]?.string))
        #expect(pattern.events.map(\.time) == [1, 1.5])
        #expect(pattern.events.allSatisfy { $0.type == .hapticTransient && $0.intensity == HapticManager.tapIntensity })
        let android = try #require(try g.apply(action: "touch.export", value: .string("android"))["export"]?.object)
        let json = try HapticJSON.parse(try #require(android["text"]?.string))
        guard case .object(let members) = json else { Issue.record("not an object"); return }
        let fields = Dictionary(members.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        guard case .array(let timings)? = fields["timings"], case .array(let amplitudes)? = fields["amplitudes"] else {
            Issue.record("no timings/amplitudes"); return
        }
        #expect(timings.count == amplitudes.count && !timings.isEmpty)
        // Two taps at 1 s and 1.5 s on the 25 ms grid: pause, tap at round(0.4·255) = 102, pause, tap.
        #expect(AndroidWaveform(timings: [1000, 25, 475, 25], amplitudes: [0, 102, 0, 102]).document() == json)
    }
}
