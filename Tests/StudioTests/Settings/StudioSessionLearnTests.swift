import Ariel
import Hecate
import HiSynth
import InstrumentSettings
import Studio
import Synchronization
import Testing

/// MIDI learn through the studio's protocol: `hecate.learn` arms a control, the next controller from
/// MIDI in binds it (every client sees the binding), and the controller then moves the control as a
/// slider does; settings go on the instruments and come back from them.
@Suite("Studio MIDI learn and settings")
struct StudioSessionLearnTests {
    final class Outbox: @unchecked Sendable {
        let messages = Mutex<[StudioOutgoing]>([])
        var send: StudioSession.Outbox { { m in self.messages.withLock { $0.append(m) } } }
        func take() -> [[String: StudioValue]] {
            messages.withLock { list in
                defer { list.removeAll() }
                return list.compactMap { if case .text(let t) = $0 { return try? StudioValue(json: t).object } else { return nil } }
            }
        }
    }

    static func session() throws -> (StudioSession, HecateStudioInstrument, HandsStudioInstrument) {
        let hecate = HecateStudioInstrument()
        let hands = try HandsStudioInstrument()
        return (StudioSession(instruments: [hecate, hands]), hecate, hands)
    }

    static func join(_ session: StudioSession, _ outbox: Outbox) -> Int {
        let c = session.connect(outbox: outbox.send)
        session.receive(Array(#"{"type":"hello","client":null}"#.utf8), from: c, now: 0)
        return c
    }

    static func cc(_ controller: UInt8, _ value: UInt8) -> MIDIMessage {
        .controlChange(channel: MIDIChannel(number: 1)!, controller: MIDIUInt7(controller)!, value: MIDIUInt7(value)!)
    }

    @Test("learn action → a CC binds (state shows it) → the CC moves hecate.bpm; clear forgets it")
    func learnThroughTheProtocol() throws {
        let (session, hecate, _) = try Self.session()
        let out = Outbox()
        let c = Self.join(session, out)
        let state = try #require(out.take().first { $0["type"] == "state" }?["state"]?.object)
        #expect(state["learn"]?.object?["controls"]?.array?.contains("hecate.bpm") == true)

        session.receive(Array(#"{"type":"action","path":"hecate.learn","value":"bpm"}"#.utf8), from: c, now: 1)
        let armed = out.take()
        #expect(armed.first?["type"] == "changed")
        #expect(armed.first?["changes"]?.object?["learn"]?.object?["armed"] == "hecate.bpm")

        session.receiveMIDI(Self.cc(21, 100))
        session.receiveMIDI(Self.cc(21, 101))
        let bound = out.take()
        #expect(bound.first?["changes"]?.object?["learn"]?.object?["bindings"] == ["hecate.bpm": "CC 21 ch 1"])
        #expect(session.midiBindings.map(\.parameter) == ["hecate.bpm"])

        session.receiveMIDI(Self.cc(21, 127))
        #expect(hecate.settings.bpm == 300)
        let moved = out.take()
        #expect(moved.first?["changes"]?.object?["bpm"] == 300)
        session.receiveMIDI(Self.cc(21, 0))
        #expect(hecate.settings.bpm == 20)
        _ = out.take()

        session.receive(Array(#"{"type":"action","path":"hecate.learnClear","value":"hecate.bpm"}"#.utf8), from: c, now: 2)
        #expect(out.take().first?["changes"]?.object?["learn"]?.object?["bindings"] == [:])
        session.receiveMIDI(Self.cc(21, 64))
        #expect(hecate.settings.bpm == 20)

        // A control that is not learnable, and a missing value, are refused with an error.
        session.receive(Array(#"{"type":"action","path":"hecate.learn","value":"key"}"#.utf8), from: c, now: 3)
        session.receive(Array(#"{"type":"action","path":"hecate.learn"}"#.utf8), from: c, now: 3)
        let errors = out.take()
        #expect(errors.count == 2 && errors.allSatisfy { $0["type"] == "error" && $0["ref"] == "hecate.learn" })
    }

    @Test("a learned synth knob moves the hands synth (any instrument's binding, also when not on screen)")
    func handsKnob() throws {
        let (session, _, hands) = try Self.session()
        session.midiBindings = [MIDIBinding(parameter: "hands.synth.gain", source: .controlChange(channel: MIDIChannel(number: 1)!, controller: 7),
                                            minimum: -60, maximum: 12)]
        session.receiveMIDI(Self.cc(7, 127))
        #expect(hands.controller.settings.synth.outputGain == 12)
        session.receiveMIDI(Self.cc(7, 0))
        #expect(hands.controller.settings.synth.outputGain == -60)
    }

    @Test("HiSynth declares its continuous knobs as learnable; a learned CC moves one (learn action, then the CC)")
    func hisynthKnob() throws {
        let hisynth = HiSynthStudioInstrument()
        let session = StudioSession(instruments: [hisynth])
        let paths = HiSynthStudioInstrument.learnableControls.map(\.path)
        #expect(paths.contains("hisynth.lp.cutoff") && paths.contains("hisynth.env.sustain") && paths.contains("hisynth.delay.mix"))
        #expect(!paths.contains("hisynth.osc1.pitch") && !paths.contains("hisynth.reverb.size"), "whole-number controls are not knobs")
        #expect(MIDILearnableControl.named("hisynth.lp.cutoff")?.range == 10...22_050)
        let outbox = Outbox()
        let c = Self.join(session, outbox)
        session.receive(Array(#"{"type":"action","path":"hisynth.learn","value":"hisynth.env.sustain"}"#.utf8), from: c, now: 1)
        #expect(session.armedLearnControl == "hisynth.env.sustain")
        // Two different values bind it (a device streaming a constant does not).
        session.receiveMIDI(Self.cc(21, 64))
        session.receiveMIDI(Self.cc(21, 65))
        #expect(session.armedLearnControl == nil)
        #expect(session.midiBindings.map(\.parameter) == ["hisynth.env.sustain"])
        session.receiveMIDI(Self.cc(21, 127))
        #expect(hisynth.preset.envelope.sustain == 1)
        session.receiveMIDI(Self.cc(21, 0))
        #expect(hisynth.preset.envelope.sustain == 0)
    }

    @Test("HiSynth's sound is saved as its preset string (byte-exact) with the octave, and restored from the file")
    func hisynthSettings() throws {
        let first = HiSynthStudioInstrument()
        let session = StudioSession(instruments: [first])
        let chosen = HiSynthPreset.factory[6]
        let text = try chosen.encoded()
        _ = try first.apply(action: "hisynth.preset.import", value: .string(text))
        _ = try first.apply(set: "hisynth.octave", value: .number(5))
        let saved = session.currentSettings(over: ProsperoSettings(), automaticRoute: nil)
        #expect(saved.sections["hisynth"]?.object?["preset"] == .string(text))
        let file = try ProsperoSettings(json: saved.jsonText)
        #expect(file == saved, "the file reads back equal")

        let second = HiSynthStudioInstrument()
        #expect(StudioSession(instruments: [second]).apply(file).isEmpty)
        #expect(try second.preset.encoded() == text && second.octave == 5)

        // A hostile section is refused member by member, naming it; the sound stays.
        var hostile = ProsperoSettings()
        hostile.sections["hisynth"] = .object(["preset": .string("not a preset"), "octave": .number(99)])
        let refused = StudioSession(instruments: [second]).apply(hostile)
        #expect(refused.count == 2 && refused[0].hasPrefix("hisynth.preset:") && refused[1].hasPrefix("hisynth.octave:"), "\(refused)")
        #expect(try second.preset.encoded() == text)
    }

    @Test("settings go onto the instruments through their controls and come back unchanged")
    func applyAndRead() throws {
        let (session, hecate, hands) = try Self.session()
        let wanted = ProsperoSettingsTests.unusual()
        #expect(session.apply(wanted).isEmpty)
        #expect(hecate.settings.bpm == 123.5 && hecate.settings.packID == "coven" && hecate.settings.route == .speaker)
        #expect(hands.controller.settings == wanted.hands)
        let back = session.currentSettings(over: ProsperoSettings(), automaticRoute: nil)
        #expect(back == wanted)
        // A route that is still the detected one is saved as auto.
        #expect(session.currentSettings(over: wanted, automaticRoute: .speaker).hecateRouteIsAutomatic)
    }
}
