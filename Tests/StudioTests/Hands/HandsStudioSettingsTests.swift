import Ariel
import InstrumentSettings
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

    @Test("per hand: any four channels, one per slot, as --per-hand-channels; a wrong list is refused, naming it")
    func channelPerSlot() throws {
        var s = HandsStudioSettings()
        try s.set("channelMode", to: .text("perHand"))
        try s.set("channels", to: .text("1, 3,5,16"))
        #expect(s.routerSettings.channels == .perSlot(channels: [1, 3, 5, 16]))
        #expect(s.value(at: "channels") == .text("1,3,5,16") && s.channel == 1)
        for bad in ["1,2,3", "1,2,3,4,5", "0,1,2,3", "1,2,3,17", "a,b,c,d", "", "1,,2,3"] {
            do { try s.set("channels", to: .text(bad)); Issue.record("'\(bad)' accepted") } catch { #expect(error.path == "channels", "\(error)") }
        }
        #expect(throws: HandsStudioSettingsError.self) { try s.set("channels", to: .number(1)) }
        #expect(s.routerSettings.channels == .perSlot(channels: [1, 3, 5, 16]))
        // The number is the shortcut: four channels from it.
        try s.set("channel", to: .number(9))
        #expect(s.routerSettings.channels == .perSlot(channels: [9, 10, 11, 12]))
    }

    @Test("the settings file keeps the four channels; a file from before them means four from the channel")
    func channelsInTheFile() throws {
        var settings = ProsperoSettings()
        try settings.hands.set("channelMode", to: .text("perHand"))
        try settings.hands.set("channels", to: .text("2,4,6,8"))
        let back = try ProsperoSettings(json: settings.jsonText)
        #expect(back.hands.routerSettings.channels == .perSlot(channels: [2, 4, 6, 8]))
        let legacy = try ProsperoSettings(json: #"{"version":1,"hands":{"channelMode":"perHand","channel":5}}"#)
        #expect(legacy.hands.routerSettings.channels == .perSlot(channels: [5, 6, 7, 8]))
        // One channel: the file also lists the four per-hand channels, which must not move it.
        var single = ProsperoSettings()
        try single.hands.set("channel", to: .number(3))
        let read = try ProsperoSettings(json: single.jsonText)
        #expect(read.hands.channel == 3 && read.hands.routerSettings.channels == .shared(channel: 3))
        #expect(read == single)
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
