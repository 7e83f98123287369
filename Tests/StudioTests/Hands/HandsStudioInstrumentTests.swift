import InstrumentSettings
import Studio
import Testing

/// The hands instrument as the studio session sees it: protocol values in, JSON values out, audio and
/// MIDI through its `StudioAudioEngine`.
@Suite("Hands studio instrument")
struct HandsStudioInstrumentTests {
    /// Renders `blocks` × 512 frames the way the audio driver does and returns the MIDI it drained.
    func drive(_ hands: HandsStudioInstrument, blocks: Int) -> [[UInt8]] {
        var midi: [[UInt8]] = []
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512), right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        for _ in 0..<blocks {
            hands.audio.drainMIDI { midi.append([$0, $1, $2]) }
            hands.audio.render(frameCount: 512, left: left, right: right)
        }
        return midi
    }

    func notes(_ frame: [String: StudioValue]?) -> [Double] {
        (frame?["notes"]?.array ?? []).compactMap { $0.object?["note"]?.number }
    }

    @Test("state carries the settings and the frets with their label circles")
    func state() throws {
        let hands = try HandsStudioInstrument()
        let state = hands.stateJSON()
        #expect(state["key"] == .string("C") && state["scale"] == .string("majorPentatonic"))
        #expect(state["output"] == .string("synth") && state["touchSlots"] == .number(4))
        let frets = try #require(state["frets"]?.array)
        // C major pentatonic over 48…72: 11 zones, the lowest (C3) a root at the bottom edge.
        #expect(frets.count == 11)
        let first = try #require(frets.first?.object)
        #expect(first["note"] == .number(48) && first["bottom"] == .number(1))
        #expect(first["label"]?.object?["role"] == .string("root") && first["label"]?.object?["name"] == .string("C3"))
        #expect(state["synth.waveform"] == .string("saw"))
    }

    @Test("set answers with the changes (frets too when the zones move) or a typed error naming the control")
    func set() throws {
        let hands = try HandsStudioInstrument()
        let changes = try hands.apply(set: "hands.key", value: .string("D"))
        #expect(changes["key"] == .string("D"))
        #expect(changes["frets"]?.array?.count == 10)
        #expect(try hands.apply(set: "hands.synth.reverb", value: .bool(true)) == ["synth.reverb": .bool(true)])
        #expect(throws: StudioError.self) { try hands.apply(set: "hands.low", value: .string("C9")) }
        do { _ = try hands.apply(set: "hands.channel", value: .number(0)) } catch {
            #expect(error.code == "bad_value" && error.ref == "hands.channel")
        }
        do { _ = try hands.apply(set: "hands.volume", value: .number(1)) } catch { #expect(error.code == "unknown_control") }
        do { _ = try hands.apply(set: "hands.bend", value: .array([])) } catch { #expect(error.code == "bad_value") }
        do { _ = try hands.apply(action: "hands.learn", value: .null) } catch { #expect(error.code == "unknown_control") }
        #expect(hands.stateJSON()["key"] == .string("D"))
    }

    @Test("a touch plays through the synth and midi_out; cancel ends it on both")
    func touch() throws {
        let hands = try HandsStudioInstrument()
        _ = try hands.apply(set: "hands.output", value: .string("both"))
        hands.audio.prepare(sampleRate: 48_000, maximumFrames: 512)
        _ = drive(hands, blocks: 1)
        hands.advance(to: 10)
        _ = try hands.touch(StudioTouch(id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 1), client: "a")
        var midi = drive(hands, blocks: 8)
        #expect(midi.contains { $0[0] == 0x90 && $0[1] == 69 && $0[2] > 0 })
        let frame = hands.frameJSON(now: 10.1)
        #expect(notes(frame) == [69])
        #expect(frame?["synthNotes"] == .array([.number(69)]))
        _ = try hands.touch(StudioTouch(id: 0, phase: .cancel, x: 0, y: 0, pressure: 0), client: "a")
        midi = drive(hands, blocks: 8)
        #expect(midi.contains { ($0[0] == 0x80 && $0[1] == 69) || ($0[0] == 0x90 && $0[1] == 69 && $0[2] == 0) })
        let after = hands.frameJSON(now: 10.3)
        #expect(notes(after).isEmpty)
        #expect(after?["synthNotes"] == .array([]))
    }

    @Test("silence (deselected, studio stopping) ends every finger's note")
    func silence() throws {
        let hands = try HandsStudioInstrument()
        _ = try hands.apply(set: "hands.output", value: .string("midi"))
        _ = try hands.touch(StudioTouch(id: 0, phase: .down, x: 0.5, y: 0.5), client: "a")
        _ = try hands.touch(StudioTouch(id: 1, phase: .down, x: 0.5, y: 0.1), client: "b")
        #expect(notes(hands.frameJSON(now: 1)).sorted() == [60, 69])
        hands.silence(at: 2)
        #expect(notes(hands.frameJSON(now: 2)).isEmpty)
        let midi = drive(hands, blocks: 1)
        #expect(midi.filter { $0[0] & 0xF0 == 0x80 }.map { $0[1] }.sorted() == [60, 69])
        #expect(midi.contains { $0 == [0xB0, 123, 0] })
    }
}
