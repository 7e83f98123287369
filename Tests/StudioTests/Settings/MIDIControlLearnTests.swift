import Ariel
import Hecate
import InstrumentSettings
import Studio
import Testing

/// MIDI learn: the next controller moved binds to the armed control over its whole range; after
/// that, the controller moves the control.
@Suite("MIDI learn of screen controls")
struct MIDIControlLearnTests {
    static func cc(_ controller: UInt8, _ value: UInt8, channel: Int = 1) -> MIDIMessage {
        .controlChange(channel: MIDIChannel(number: channel)!, controller: MIDIUInt7(controller)!, value: MIDIUInt7(value)!)
    }

    @Test("arm → a moving CC binds (a constant one does not) → the CC moves the control over its range")
    func learnThenMove() throws {
        var learn = MIDIControlLearn()
        try learn.arm("hecate.bpm")
        #expect(learn.armedControl == "hecate.bpm")
        // The first value of a controller only tells where it is; a second, different one is a move.
        #expect(learn.receive(Self.cc(74, 10, channel: 3)).learned == nil)
        #expect(learn.receive(Self.cc(74, 10, channel: 3)).learned == nil)
        let (learned, moves) = learn.receive(Self.cc(74, 11, channel: 3))
        #expect(learned == MIDIBinding(parameter: "hecate.bpm", source: .controlChange(channel: MIDIChannel(number: 3)!, controller: 74),
                                       minimum: 20, maximum: 300))
        #expect(moves.isEmpty && learn.armedControl == nil)
        // 0 → 20 BPM, 127 → 300 BPM, 64 → 20 + 280 × 64/127.
        #expect(learn.receive(Self.cc(74, 0, channel: 3)).moves.map(\.value) == [20])
        #expect(learn.receive(Self.cc(74, 127, channel: 3)).moves.map(\.value) == [300])
        let mid = try #require(learn.receive(Self.cc(74, 64, channel: 3)).moves.first)
        #expect(mid.path == "hecate.bpm" && abs(mid.value - (20 + 280.0 * 64 / 127)) < 1e-9)
        // Another channel or controller moves nothing.
        #expect(learn.receive(Self.cc(74, 64, channel: 4)).moves.isEmpty)
        #expect(learn.receive(Self.cc(75, 64, channel: 3)).moves.isEmpty)
        #expect(MIDIControlLearn.describe(learned!.source) == "CC 74 ch 3")
    }

    @Test("only learnable controls arm; clear forgets; the page's state lists armed, bound and learnable controls")
    func clearAndState() throws {
        var learn = MIDIControlLearn()
        #expect(throws: ProsperoSettingsError.self) { try learn.arm("hecate.key") }
        #expect(throws: ProsperoSettingsError.self) { try learn.arm("hands.synth.waveform") }
        try learn.arm("hands.synth.delayMix")
        let armed = learn.json(instrument: "hands").object!
        #expect(armed["armed"] == "hands.synth.delayMix")
        #expect(armed["controls"]?.array?.contains("hands.synth.gain") == true)
        #expect(armed["controls"]?.array?.contains("hecate.bpm") == false)
        _ = learn.receive(Self.cc(1, 0))
        _ = learn.receive(Self.cc(1, 5))
        #expect(learn.json(instrument: "hands").object?["bindings"] == ["hands.synth.delayMix": "CC 1 ch 1"])
        #expect(learn.json(instrument: "hecate").object?["bindings"] == [:])
        learn.clear("hands.synth.delayMix")
        #expect(learn.bindings.isEmpty && learn.receive(Self.cc(1, 90)).moves.isEmpty)
    }

    @Test("every learnable control's range is its owner's: Hecate's and the synth panel's")
    func catalogue() {
        #expect(MIDILearnableControl.named("hecate.bpm")?.range == HecateStudioSettings.bpmRange)
        #expect(MIDILearnableControl.named("hands.synth.toneCutoff")?.range == 20...20_000)
        #expect(HandsStudioInstrument.learnableControls.count == HandsSynthControl.all.filter {
            if case .continuous = $0.kind { return true } else { return false }
        }.count)
    }

    /// The settings file validates bindings against `MIDILearnableControl.all`, declared below the studio (the
    /// command line reads the file without it); the studio's registry declares the same union from its instruments.
    @Test("the settings file's learnable controls are exactly the studio instruments' own")
    func settingsAndRegistryAgree() {
        let registry = StudioInstrumentRegistry.standardTypes.flatMap { $0.learnableControls }
        #expect(Set(registry) == Set(MIDILearnableControl.all))
        #expect(registry.count == MIDILearnableControl.all.count, "no control declared twice")
        #expect(!HiSynthStudioInstrument.learnableControls.isEmpty && !HecateStudioInstrument.learnableControls.isEmpty)
    }

    @Test("a learned knob moves Hecate's setting and gives the engine command the slider gives")
    func hecateMove() {
        var s = HecateStudioSettings()
        #expect(s.move("hecate.bpm", to: 140, pack: .cathedral) == [.bpm(140)])
        #expect(s.bpm == 140)
        let commands = s.move("hecate.reverb", to: 2, pack: .cathedral)
        #expect(s.reverb == 1)  // clamped to the control's range
        var expected = SoundPack.cathedral.preset
        expected.reverbMix = 1
        #expect(commands == [.preset(expected)])
        #expect(s.move("hecate.key", to: 1, pack: .cathedral).isEmpty)
    }
}
