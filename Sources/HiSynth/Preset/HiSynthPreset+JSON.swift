import Foundation
import Horatio

extension HiSynthPreset {
    /// The preset as the documented, stable JSON users edit and the CLI prints (issue 13):
    /// every number is the exact stored `Float16` printed as `Double(value)`'s shortest
    /// round-tripping form (0.18994140625, not Float16's own "0.19"), −0.0 keeps its sign, enums
    /// are names. One section per line so a hand edit stays readable; ends with a newline.
    public func json() -> String {
        func number(_ value: Float16) -> String { Double(value).description }
        func flag(_ value: Bool) -> String { value ? "true" : "false" }
        var out = "{\n"
        out += "  \"name\": \(Self.jsonString(name)),\n"
        out += "  \"oscillators\": [\n"
        out += oscillators.map { osc in
            "    {\"waveform\": \"\(osc.waveform.name)\", \"level\": \(number(osc.level)), \"pitch\": \(number(osc.pitch))}"
        }.joined(separator: ",\n")
        out += "\n  ],\n"
        out += "  \"envelope\": {\"attack\": \(number(envelope.attack)), \"decay\": \(number(envelope.decay)), "
            + "\"sustain\": \(number(envelope.sustain)), \"release\": \(number(envelope.release))},\n"
        out += "  \"filters\": {\n"
        out += "    \"lowPass\": {\"cutoff\": \(number(filters.lowPass.cutoff)), \"resonance\": \(number(filters.lowPass.resonance))},\n"
        out += "    \"highPass\": {\"cutoff\": \(number(filters.highPass.cutoff)), \"resonance\": \(number(filters.highPass.resonance))}\n"
        out += "  },\n"
        out += "  \"lfos\": [\n"
        out += lfos.map { lfo in
            "    {\"waveform\": \"\(lfo.waveform.name)\", \"depth\": \(number(lfo.depth)), \"speed\": \(number(lfo.speed)), "
                + "\"phase\": \(number(lfo.phase)), \"pitch\": \(flag(lfo.pitch)), \"amplitude\": \(flag(lfo.amplitude)), "
                + "\"filterLow\": \(flag(lfo.filterLow)), \"filterHigh\": \(flag(lfo.filterHigh))}"
        }.joined(separator: ",\n")
        out += "\n  ],\n"
        let fx = effects
        out += "  \"effects\": {\n"
        out += "    \"reverb\": {\"on\": \(flag(fx.reverb.on)), \"size\": \(number(fx.reverb.size)), "
            + "\"type\": \"\(fx.reverb.type.name)\", \"mix\": \(number(fx.reverb.mix))},\n"
        out += "    \"delay\": {\"on\": \(flag(fx.delay.on)), \"feedback\": \(number(fx.delay.feedback)), "
            + "\"time\": \(number(fx.delay.time)), \"mix\": \(number(fx.delay.mix))},\n"
        out += "    \"decimator\": {\"on\": \(flag(fx.decimator.on)), \"rate\": \(number(fx.decimator.rate)), \"mix\": \(number(fx.decimator.mix))},\n"
        out += "    \"drive\": {\"on\": \(flag(fx.drive.on)), \"gain\": \(number(fx.drive.gain)), \"mix\": \(number(fx.drive.mix))}\n"
        out += "  }\n"
        out += "}\n"
        return out
    }

    /// Reads preset JSON in the form `json()` writes. Every field is required; unknown fields are
    /// ignored. Numbers round to the nearest `Float16` (as the original stores them); a number beyond
    /// ±65504 is an error, not infinity.
    ///
    /// - Throws: `HiSynthPresetError` naming the field path (`lfos[1].speed`) and the problem.
    public init(json: Data) throws(HiSynthPresetError) {
        do {
            self = try JSONDecoder().decode(HiSynthPresetJSONBox.self, from: json).preset
        } catch let error as HiSynthPresetError {
            throw error
        } catch let DecodingError.typeMismatch(_, context) {
            throw .wrongType(HiSynthJSONObject.path(context.codingPath), expected: "an object")
        } catch {
            throw .invalidJSON("the text is not valid JSON.")
        }
    }

    /// Reads preset JSON from text (see `init(json:)`).
    public init(jsonText: String) throws(HiSynthPresetError) {
        try self.init(json: Data(jsonText.utf8))
    }

    static func jsonString(_ text: String) -> String {
        JSONStringLiteral.quoted(text)
    }
}
