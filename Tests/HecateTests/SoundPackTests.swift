import Foundation
import Hecate
import Testing

@Suite struct SoundPackTests {
    @Test func builtInPacksAreValidAndKeepTheirCharacter() throws {
        for pack in SoundPack.builtIn { try pack.validate() }
        #expect(SoundPack.cathedral.preset.waveform == .triangle)
        #expect(SoundPack.coven.preset.waveform == .sawtooth)
        #expect(SoundPack.builtIn.map(\.id) == ["cathedral", "coven"])
        #expect(SoundPack.cathedral.preset.breathRate == 0.15)
    }

    @Test(arguments: SoundPack.builtIn)
    func jsonRoundTrip(pack: SoundPack) throws {
        let data = pack.jsonData()
        #expect(try SoundPack(json: data) == pack)
        #expect(pack.jsonData() == data)  // stable output
    }

    static func mutated(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: SoundPack.coven.jsonData()) as! [String: Any]
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func malformedPacksNameWhatIsWrong() throws {
        #expect(throws: SoundPackError.self) { try SoundPack(json: Data("{".utf8)) }
        #expect(throws: SoundPackError.missingField("preset")) {
            try SoundPack(json: Self.mutated { $0["preset"] = nil })
        }
        #expect(throws: SoundPackError.missingField("preset.detuneCents")) {
            try SoundPack(json: Self.mutated { var p = $0["preset"] as! [String: Any]; p["detuneCents"] = nil; $0["preset"] = p })
        }
        #expect(throws: SoundPackError.wrongType(field: "preset.reverbMix", expected: "a number")) {
            try SoundPack(json: Self.mutated { var p = $0["preset"] as! [String: Any]; p["reverbMix"] = "lots"; $0["preset"] = p })
        }
        #expect(throws: SoundPackError.invalidValue(field: "preset.waveform", reason: "Cannot initialize OscillatorWaveform from invalid String value noise")) {
            try SoundPack(json: Self.mutated { var p = $0["preset"] as! [String: Any]; p["waveform"] = "noise"; $0["preset"] = p })
        }
        #expect(throws: SoundPackError.badPreset(VoicePresetError(field: "reverbDecay", value: 90, expected: "0.1…20.0"))) {
            try SoundPack(json: Self.mutated { var p = $0["preset"] as! [String: Any]; p["reverbDecay"] = 90; $0["preset"] = p })
        }
        #expect(throws: SoundPackError.badPreset(VoicePresetError(field: "filterCutoffMax", value: 500, expected: "greater than filterCutoffMin (600.0)"))) {
            try SoundPack(json: Self.mutated { var p = $0["preset"] as! [String: Any]; p["filterCutoffMax"] = 500; $0["preset"] = p })
        }
        #expect(throws: SoundPackError.badIdentifier("My Pack")) {
            try SoundPack(json: Self.mutated { $0["id"] = "My Pack" })
        }
        #expect(throws: SoundPackError.unsupportedVersion(2)) {
            try SoundPack(json: Self.mutated { $0["formatVersion"] = 2 })
        }
    }

    @Test func visualOverridesAreOptionalAndChecked() throws {
        // A pack written before the overrides existed still loads.
        let plain = try SoundPack(json: Self.mutated { $0["visualOverrides"] = nil })
        #expect(plain.visualOverrides == nil)
        let custom = try SoundPack(json: Self.mutated {
            $0["visualOverrides"] = ["warp": 0.25, "palette": ["#101010", "#a633D9"]] as [String: Any]
        })
        #expect(custom.visualOverrides == SoundPackVisualOverrides(warp: 0.25, palette: ["#101010", "#a633D9"]))
        #expect(throws: SoundPackError.invalidValue(field: "visualOverrides.feedbackDecay", reason: "must be 0…0.99")) {
            try SoundPack(json: Self.mutated { $0["visualOverrides"] = ["feedbackDecay": 1.0] })
        }
        #expect(throws: SoundPackError.invalidValue(field: "visualOverrides.palette[1]", reason: "'red' is not a colour #RRGGBB")) {
            try SoundPack(json: Self.mutated { $0["visualOverrides"] = ["palette": ["#000000", "red"]] })
        }
        #expect(throws: SoundPackError.invalidValue(field: "visualOverrides.palette", reason: "needs 1…4 colours")) {
            try SoundPack(json: Self.mutated { $0["visualOverrides"] = ["palette": [String]()] })
        }
        #expect(throws: SoundPackError.invalidValue(field: "visual", reason: "must be 1–64 lower-case letters, digits or dashes")) {
            try SoundPack(json: Self.mutated { $0["visual"] = "../../etc" })
        }
    }

    @Test func errorsReadWell() {
        #expect(SoundPackError.missingField("preset.detuneCents").description == "sound pack has no 'preset.detuneCents' field")
    }
}
