import Foundation
import HiSynth
import ProsperoTestSupport
import Testing

@Suite struct HiSynthPresetJSONTests {
    @Test func factoryJSONHasTheVectorValuesAndReadsBackBitExact() throws {
        for (preset, vector) in zip(HiSynthPreset.factory, try HiSynthVectors.factory()) {
            let text = preset.json()
            // An independent JSON parser sees the vector's values.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            HiSynthVectors.expectMatches(preset, object)
            #expect(NSDictionary(dictionary: object).isEqual(to: vector.decoded), "\(preset.name)")
            let back = try HiSynthPreset(jsonText: text)
            #expect(back.json() == text)
            #expect(try back.encoded() == vector.string)
        }
    }

    @Test func printsExactFloat16ValuesAndTheSignOfZero() throws {
        let key = HiSynthPreset.factory[0].json()
        #expect(key.contains("\"level\": 0.18994140625"))
        #expect(key.contains("\"depth\": 0.029998779296875"))
        #expect(key.contains("\"cutoff\": 3584.0"))
        let spring = try #require(HiSynthPreset.factory.first { $0.name == "Spring Pluck" }).json()
        #expect(spring.contains("{\"waveform\": \"saw\", \"level\": 0.2900390625, \"pitch\": -0.0}"))
        let back = try HiSynthPreset(jsonText: spring)
        #expect(back.oscillators[1].pitch.bitPattern == 0x8000)
    }

    @Test func numbersRoundToTheNearestFloat16() throws {
        var text = HiSynthPreset.factory[0].json()
        text = text.replacingOccurrences(of: "\"mix\": 0.1099853515625", with: "\"mix\": 0.11")
        text = text.replacingOccurrences(of: "\"cutoff\": 3584.0", with: "\"cutoff\": 3585")
        let preset = try HiSynthPreset(jsonText: text)
        #expect(preset.effects.reverb.mix == 0.1099853515625)
        #expect(preset.filters.lowPass.cutoff == 3584)  // 3585 lies halfway between 3584 and 3586: ties to even
        #expect(try preset.encoded() == HiSynthPreset.factoryStrings[0])
    }

    @Test func namesAreEscapedAndReadBack() throws {
        var preset = HiSynthPreset.factory[1]
        preset.name = "quote \" back \\ tab \t nl \n bell \u{07} Ünï 🎹 a:b=c"
        let text = preset.json()
        #expect(text.contains(#""name": "quote \" back \\ tab \t nl \n bell \u0007 Ünï 🎹 a:b=c""#))
        #expect(try HiSynthPreset(jsonText: text) == preset)
    }

    @Test func badJSONIsRejectedWithTheFieldAndTheProblem() throws {
        let key = HiSynthPreset.factory[0].json()
        func edit(_ from: String, _ to: String) -> String {
            precondition(key.contains(from))
            return key.replacingOccurrences(of: from, with: to)
        }
        let cases: [(String, HiSynthPresetError)] = [
            ("", .invalidJSON("the text is not valid JSON.")),
            ("{\"name\": ", .invalidJSON("the text is not valid JSON.")),
            ("[1, 2]", .wrongType("the preset", expected: "an object")),
            (edit("\"name\": \"HiSynth Key\",", ""), .missingField("name")),
            (edit("\"waveform\": \"saw\"", "\"waveform\": \"sawtooth\""),
             .unknownName("oscillators[0].waveform", value: "sawtooth", allowed: ["sine", "square", "saw", "triangle", "pulse", "rsaw"])),
            (edit("\"type\": \"hall\"", "\"type\": \"cathedral\""),
             .unknownName("effects.reverb.type", value: "cathedral", allowed: ["plate", "room", "hall"])),
            (edit("\"decay\": 0.5", "\"decay\": \"0.5\""), .wrongType("envelope.decay", expected: "a number")),
            (edit("\"release\": 0.5", "\"release\": null"), .wrongType("envelope.release", expected: "present (not null)")),
            (edit("\"attack\": 0.0, ", ""), .missingField("envelope.attack")),
            (edit("\"cutoff\": 3584.0", "\"cutoff\": 70000"), .outOfFloat16Range("filters.lowPass.cutoff", value: 70000)),
            (edit("\"cutoff\": 3584.0", "\"cutoff\": -65520"), .outOfFloat16Range("filters.lowPass.cutoff", value: -65520)),
            (edit("\"cutoff\": 3584.0", "\"cutoff\": 1e999"), .outOfFloat16Range("filters.lowPass.cutoff", value: .infinity)),
            (edit("\"on\": true, \"size\"", "\"on\": 1, \"size\""), .wrongType("effects.reverb.on", expected: "true or false")),
            (edit("\"filters\": {", "\"filters\": [{").replacingOccurrences(of: "0.0}\n  },\n  \"lfos\"", with: "0.0}}],\n  \"lfos\""),
             .wrongType("filters", expected: "an object")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(expected)") { try HiSynthPreset(jsonText: text) }
        }
        // Wrong counts: one LFO removed, one oscillator added.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(key.utf8)) as? [String: Any])
        object["lfos"] = Array((object["lfos"] as? [Any] ?? []).prefix(2))
        #expect(throws: HiSynthPresetError.wrongCount("lfos", count: 2, expected: 3)) {
            try HiSynthPreset(json: try JSONSerialization.data(withJSONObject: object))
        }
        object["lfos"] = 3
        #expect(throws: HiSynthPresetError.wrongType("lfos", expected: "an array")) {
            try HiSynthPreset(json: try JSONSerialization.data(withJSONObject: object))
        }
    }
}
