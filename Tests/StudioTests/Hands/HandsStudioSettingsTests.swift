import Ariel
import Studio
import Testing

@Suite("Hands studio settings")
struct HandsStudioSettingsTests {
    @Test("settings that cannot play are refused, naming the setting, and change nothing")
    func refused() throws {
        var s = HandsStudioSettings()
        let cases: [(String, HandsSettingValue, String)] = [
            ("key", .text("H"), "key"),
            ("scale", .text("wholeTone"), "scale"),
            ("low", .text("C9"), "high"),            // 108 above the highest note 72
            ("high", .number(200), "high"),
            ("low", .text("nonsense"), "low"),
            ("low", .number(60.5), "low"),
            ("channel", .number(17), "channel"),
            ("channel", .text("one"), "channel"),
            ("bendRange", .number(48), "bendRange"), // the synth bends at most 24
            ("output", .text("speakers"), "output"),
            ("bend", .number(1), "bend"),
            ("volume", .number(1), "volume"),
        ]
        for (path, value, field) in cases {
            #expect(throws: HandsStudioSettingsError.self, "\(path) = \(value)") { try s.set(path, to: value) }
            do { try s.set(path, to: value) } catch { #expect(error.path == field, "\(path) = \(value): \(error)") }
        }
        #expect(s == HandsStudioSettings())
        s.channelMode = .perHand
        #expect(throws: HandsStudioSettingsError.self) { try s.set("channel", to: .number(14)) }  // 14…17
        try s.set("channel", to: .number(13))
        #expect(s.routerSettings.channels == .perSlot(channels: [13, 14, 15, 16]))
    }

    @Test("notes by name or number; the bend range reaches router and synth alike")
    func accepted() throws {
        var s = HandsStudioSettings()
        try s.set("low", to: .text("A2"))
        try s.set("high", to: .number(84))
        try s.set("bendRange", to: .number(12))
        #expect(s.lowestNote == 45 && s.highestNote == 84)
        #expect(s.routerSettings.bendRange == 12)
        #expect(s.synthSettings.pitchBendRange == 12)
        #expect(s.value(at: "low") == .number(45))
    }

    @Test("synth panel controls check their ranges and name the synth command they send")
    func synthControls() throws {
        var synth = PolySynthSettings()
        let delay = try #require(HandsSynthControl.named("delayTime"))
        #expect(throws: HandsStudioSettingsError.self) { try delay.apply(.number(5), to: &synth) }
        #expect(throws: HandsStudioSettingsError.self) { try delay.apply(.number(.nan), to: &synth) }
        _ = try delay.apply(.number(0.5), to: &synth)
        #expect(synth.delay.time == 0.5)
        let wave = try #require(HandsSynthControl.named("waveform"))
        #expect(throws: HandsStudioSettingsError.self) { try wave.apply(.text("noise"), to: &synth) }
        _ = try wave.apply(.text("square"), to: &synth)
        #expect(synth.waveform == .square)
        _ = try #require(HandsSynthControl.named("reverb")).apply(.flag(true), to: &synth)
        #expect(synth.reverb.enabled)
        try synth.validate()
    }

    @Test("midi output needs a JACK MIDI port: without one the controller plays the synth and refuses midi")
    func noMIDIPort() throws {
        var settings = HandsStudioSettings()
        settings.output = .both
        let hands = try HandsStudioController(settings: settings, midiOut: nil)
        #expect(hands.settings.output == .synth)
        #expect(throws: HandsStudioSettingsError.self) { try hands.set("output", to: .text("midi"), at: 0) }
        #expect(hands.settings.output == .synth)
    }
}
