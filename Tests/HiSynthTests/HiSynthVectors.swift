import Foundation
import HiSynth
import Testing

/// The factory test vectors (../shared/vectors, copied to Fixtures): the 15 strings in app order
/// and the values Python decoded from each, as JSON objects.
enum HiSynthVectors {
    static func fixture(_ name: String, _ ext: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    /// The factory preset strings, one per line of hisynth-presets.txt.
    static func strings() throws -> [String] {
        String(decoding: try fixture("hisynth-presets", "txt"), as: UTF8.self)
            .split(separator: "\n").map { String($0) }.filter { !$0.isEmpty }
    }

    /// Each line of hisynth-factory.jsonl: the string and its decoded values.
    static func factory() throws -> [(string: String, decoded: [String: Any])] {
        try String(decoding: try fixture("hisynth-factory", "jsonl"), as: UTF8.self)
            .split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return (try #require(object["string"] as? String), try #require(object["decoded"] as? [String: Any]))
            }
    }

    /// Compares a preset with the Python-decoded values field by field (floats by value and sign bit).
    static func expectMatches(_ preset: HiSynthPreset, _ json: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        func number(_ value: Float16, _ expected: Any?, _ what: String) {
            // A number, or a number's exact decimal text (from a peer that avoids JSON number parsing).
            guard let expected = (expected as? String).flatMap(Double.init) ?? (expected as? NSNumber)?.doubleValue else {
                Issue.record("\(preset.name) \(what): no number in the vector", sourceLocation: sourceLocation)
                return
            }
            let got = Double(value)
            #expect(got == expected && got.sign == expected.sign, "\(preset.name) \(what): \(got) vs \(expected)", sourceLocation: sourceLocation)
        }
        func flag(_ value: Bool, _ expected: Any?, _ what: String) {
            #expect(value == (expected as? Bool), "\(preset.name) \(what)", sourceLocation: sourceLocation)
        }
        func name(_ value: String, _ expected: Any?, _ what: String) {
            #expect(value == (expected as? String), "\(preset.name) \(what)", sourceLocation: sourceLocation)
        }
        name(preset.name, json["name"], "name")
        let oscillators = json["oscillators"] as? [[String: Any]] ?? []
        #expect(preset.oscillators.count == 2 && oscillators.count == 2, sourceLocation: sourceLocation)
        for (index, (osc, expected)) in zip(preset.oscillators, oscillators).enumerated() {
            name(osc.waveform.name, expected["waveform"], "osc\(index + 1) waveform")
            number(osc.level, expected["level"], "osc\(index + 1) level")
            number(osc.pitch, expected["pitch"], "osc\(index + 1) pitch")
        }
        let envelope = json["envelope"] as? [String: Any] ?? [:]
        number(preset.envelope.attack, envelope["attack"], "attack")
        number(preset.envelope.decay, envelope["decay"], "decay")
        number(preset.envelope.sustain, envelope["sustain"], "sustain")
        number(preset.envelope.release, envelope["release"], "release")
        let filters = json["filters"] as? [String: Any] ?? [:]
        let lowPass = filters["lowPass"] as? [String: Any] ?? [:]
        let highPass = filters["highPass"] as? [String: Any] ?? [:]
        number(preset.filters.lowPass.cutoff, lowPass["cutoff"], "lowPass cutoff")
        number(preset.filters.lowPass.resonance, lowPass["resonance"], "lowPass resonance")
        number(preset.filters.highPass.cutoff, highPass["cutoff"], "highPass cutoff")
        number(preset.filters.highPass.resonance, highPass["resonance"], "highPass resonance")
        let lfos = json["lfos"] as? [[String: Any]] ?? []
        #expect(preset.lfos.count == 3 && lfos.count == 3, sourceLocation: sourceLocation)
        for (index, (lfo, expected)) in zip(preset.lfos, lfos).enumerated() {
            name(lfo.waveform.name, expected["waveform"], "lfo\(index + 1) waveform")
            number(lfo.depth, expected["depth"], "lfo\(index + 1) depth")
            number(lfo.speed, expected["speed"], "lfo\(index + 1) speed")
            number(lfo.phase, expected["phase"], "lfo\(index + 1) phase")
            flag(lfo.pitch, expected["pitch"], "lfo\(index + 1) pitch")
            flag(lfo.amplitude, expected["amplitude"], "lfo\(index + 1) amplitude")
            flag(lfo.filterLow, expected["filterLow"], "lfo\(index + 1) filterLow")
            flag(lfo.filterHigh, expected["filterHigh"], "lfo\(index + 1) filterHigh")
        }
        let effects = json["effects"] as? [String: Any] ?? [:]
        let reverb = effects["reverb"] as? [String: Any] ?? [:]
        flag(preset.effects.reverb.on, reverb["on"], "reverb on")
        number(preset.effects.reverb.size, reverb["size"], "reverb size")
        name(preset.effects.reverb.type.name, reverb["type"], "reverb type")
        number(preset.effects.reverb.mix, reverb["mix"], "reverb mix")
        let delay = effects["delay"] as? [String: Any] ?? [:]
        flag(preset.effects.delay.on, delay["on"], "delay on")
        number(preset.effects.delay.feedback, delay["feedback"], "delay feedback")
        number(preset.effects.delay.time, delay["time"], "delay time")
        number(preset.effects.delay.mix, delay["mix"], "delay mix")
        let decimator = effects["decimator"] as? [String: Any] ?? [:]
        flag(preset.effects.decimator.on, decimator["on"], "decimator on")
        number(preset.effects.decimator.rate, decimator["rate"], "decimator rate")
        number(preset.effects.decimator.mix, decimator["mix"], "decimator mix")
        let drive = effects["drive"] as? [String: Any] ?? [:]
        flag(preset.effects.drive.on, drive["on"], "drive on")
        number(preset.effects.drive.gain, drive["gain"], "drive gain")
        number(preset.effects.drive.mix, drive["mix"], "drive mix")
    }
}
