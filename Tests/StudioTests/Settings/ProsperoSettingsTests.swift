import Ariel
import Hecate
import Horatio
import InstrumentSettings
import Testing

/// The settings document: a round trip keeps every member; a hostile document is refused with the
/// field named, never a crash.
@Suite("Settings file format")
struct ProsperoSettingsTests {
    /// Settings with every member away from its default.
    static func unusual() -> ProsperoSettings {
        var s = ProsperoSettings()
        s.hecate = HecateStudioSettings(pack: .coven)
        s.hecate.key = MusicalKey("Eb")!
        s.hecate.chord = .four
        s.hecate.bpm = 123.5
        s.hecate.arpeggiator = true
        s.hecate.arpDivision = "1/16T"
        s.hecate.tremolo = "square"
        s.hecate.tremoloDivision = "1/4."
        s.hecate.tremoloDepth = 0.25
        s.hecate.playAlong = true
        s.hecate.route = .speaker
        s.hecateRouteIsAutomatic = false
        s.hecate.bassLevel = 0.125
        s.hecate.droneLevel = 0.75
        s.hecate.reverb = 0.375
        s.hands.key = MusicalKey("F#")!
        s.hands.scale = .dorian
        s.hands.lowestNote = 40
        s.hands.highestNote = 84
        s.hands.channelMode = .perHand
        s.hands.channel = 5
        s.hands.handChannels = [5, 9, 2, 12]
        s.hands.bend = true
        s.hands.bendRange = 12
        s.hands.output = .both
        s.hands.velocity = 45
        s.hands.synth.lfoDepth = 100.0 / 127   // the mod dial at 100
        s.hands.synth.attack = 0.5
        s.hands.synth.delay.enabled = true
        s.hands.synth.delay.mix = 0.4
        s.hands.synth.waveform = .triangle
        s.midi = [
            MIDIBinding(parameter: "hecate.bpm", source: .controlChange(channel: MIDIChannel(number: 2)!, controller: 74), minimum: 60, maximum: 180),
            MIDIBinding(parameter: "hands.synth.delayMix", source: .controlChange14Bit(channel: MIDIChannel(number: 1)!, msbController: 7),
                        minimum: 0, maximum: 1, inverted: true),
        ]
        return s
    }

    @Test("a round trip keeps every member; equal settings give equal text")
    func roundTrip() throws {
        let s = Self.unusual()
        let text = s.jsonText
        let back = try ProsperoSettings(json: text)
        #expect(back == s)
        #expect(back.jsonText == text)
        #expect(try ProsperoSettings(json: ProsperoSettings().jsonText) == ProsperoSettings())
        #expect(text.contains(#""version":1"#) && text.hasSuffix("}\n"))
    }

    @Test("members left out keep their defaults; unknown members are ignored")
    func partial() throws {
        let s = try ProsperoSettings(json: #"{"version":1,"hecate":{"bpm":100,"future":"x"},"extra":[1,2]}"#)
        var expected = ProsperoSettings()
        expected.hecate.bpm = 100
        #expect(s == expected)
        // A built-in pack brings its own levels unless the file gives them.
        let coven = try ProsperoSettings(json: #"{"version":1,"hecate":{"pack":"coven"}}"#)
        #expect(coven.hecate.bassLevel == SoundPack.coven.preset.bassLevel)
        #expect(coven.hecate.reverb == SoundPack.coven.preset.reverbMix)
    }

    @Test("hostile documents: refused with the kind and the field named", arguments: [
        (#"{"version":1,"hecate":{"bpm":500}}"#, ProsperoSettingsError.Kind.badField, "hecate.bpm"),
        (#"{"version":1,"hecate":{"bpm":"fast"}}"#, .badField, "hecate.bpm"),
        (#"{"version":1,"hecate":{"key":"H"}}"#, .badField, "hecate.key"),
        (#"{"version":1,"hecate":{"route":"wifi"}}"#, .badField, "hecate.route"),
        (#"{"version":1,"hecate":{"reverb":-0.1}}"#, .badField, "hecate.reverb"),
        (#"{"version":1,"hecate":{"chord":2.5}}"#, .badField, "hecate.chord"),
        (#"{"version":1,"hecate":[]}"#, .badField, "hecate"),
        (#"{"version":1,"hands":{"low":80,"high":70}}"#, .badField, "hands.high"),
        (#"{"version":1,"hands":{"channel":17}}"#, .badField, "hands.channel"),
        (#"{"version":1,"hands":{"scale":"nope"}}"#, .badField, "hands.scale"),
        (#"{"version":1,"hands":{"velocity":20}}"#, .badField, "hands.velocity"),
        (#"{"version":1,"hands":{"synth":{"attack":99}}}"#, .badField, "hands.synth.attack"),
        (#"{"version":1,"midi":[{"control":"hecate.key","source":"cc","controller":1}]}"#, .badField, "midi[0].control"),
        (#"{"version":1,"midi":[{"control":"hecate.bpm","source":"cc","controller":128}]}"#, .badField, "midi[0].controller"),
        (#"{"version":1,"midi":[{"control":"hecate.bpm","source":"cc14","controller":40}]}"#, .badField, "midi[0].controller"),
        (#"{"version":1,"midi":[{"control":"hecate.bpm","source":"cc"}]}"#, .badField, "midi[0].controller"),
        (#"{"version":1,"midi":[{"control":"hecate.bpm","source":"osc","controller":1}]}"#, .badField, "midi[0].source"),
        (#"{"version":1,"midi":[{"control":"hecate.bpm","source":"cc","controller":1,"max":1000}]}"#, .badField, "midi[0].max"),
        (#"{"version":1,"midi":{}}"#, .badField, "midi"),
        (#"{"version":2}"#, .unsupportedVersion, "version"),
        (#"{"hecate":{}}"#, .badField, "version"),
        (#"{"version":"1"}"#, .badField, "version"),
        (#"[1,2,3]"#, .malformed, ""),
        (#"{"version":1,"#, .malformed, ""),
        ("", .malformed, ""),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), .malformed, ""),
    ])
    func hostile(_ text: String, _ kind: ProsperoSettingsError.Kind, _ field: String) {
        #expect {
            try ProsperoSettings(json: text)
        } throws: { error in
            guard let e = error as? ProsperoSettingsError else { return false }
            return e.kind == kind && e.field == field && !e.reason.isEmpty
        }
    }

    @Test("a file over the size limit is refused before parsing; too many bindings are refused")
    func limits() throws {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: ProsperoSettings.maximumBytes + 1)
        #expect(throws: ProsperoSettingsError(.tooLarge, field: "",
                                              "the file has \(big.count) bytes; settings are at most \(ProsperoSettings.maximumBytes)")) {
            try ProsperoSettings(json: big)
        }
        let one = #"{"control":"hecate.bpm","source":"cc","controller":1}"#
        let many = #"{"version":1,"midi":["# + Array(repeating: one, count: ProsperoSettings.maximumBindings + 1).joined(separator: ",") + "]}"
        #expect { try ProsperoSettings(json: many) } throws: { ($0 as? ProsperoSettingsError)?.field == "midi" }
    }

    @Test("a mapping file: an array, an object with midi, or a settings file; round trip")
    func mappingFile() throws {
        let bindings = Self.unusual().midi
        let text = ProsperoSettings.mappingsText(bindings)
        #expect(try ProsperoSettings.mappings(json: Array(text.utf8)) == bindings)
        #expect(try ProsperoSettings.mappings(json: Array(Self.unusual().jsonText.utf8)) == bindings)
        let array = try ProsperoSettings.mappings(json: Array(#"[{"control":"hecate.reverb","source":"cc","controller":91,"channel":16}]"#.utf8))
        #expect(array == [MIDIBinding(parameter: "hecate.reverb", source: .controlChange(channel: MIDIChannel(number: 16)!, controller: 91),
                                      minimum: 0, maximum: 1)])
        #expect(throws: ProsperoSettingsError.self) { try ProsperoSettings.mappings(json: Array(#"{"version":1}"#.utf8)) }
    }
}
