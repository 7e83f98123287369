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

    @Test func errorsReadWell() {
        #expect(SoundPackError.missingField("preset.detuneCents").description == "sound pack has no 'preset.detuneCents' field")
    }
}
