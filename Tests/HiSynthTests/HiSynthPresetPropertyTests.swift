import Foundation
import HiSynth
import ProsperoTestSupport
import Testing

/// Random presets with every field within and at the bounds of its range (and beyond, where the
/// wire allows it), −0.0, and names with ':', '=' and non-ASCII, round-tripped string → JSON → string.
@Suite struct HiSynthPresetPropertyTests {
    static func value(_ range: ClosedRange<Float>, _ random: inout SeededRandom) -> Float16 {
        switch random.next() % 8 {
        case 0: Float16(range.lowerBound)
        case 1: Float16(range.upperBound)
        case 2: -0.0
        case 3: Float16(bitPattern: UInt16(random.next() % 0x7C00) | (random.next() % 2 == 0 ? 0 : 0x8000))  // any finite half
        case 4: Float16.leastNonzeroMagnitude
        default: Float16(random.float(range))
        }
    }

    static func randomPreset(_ random: inout SeededRandom) -> HiSynthPreset {
        let pieces = ["a", ":", "=", "é", "🎹", " ", "ключ", "==", "Key", "\u{0}", "\""]
        let name = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        func wave() -> HiSynthWaveform { HiSynthWaveform.allCases[Int(random.next() % 6)] }
        func flag() -> Bool { random.next() % 2 == 0 }
        typealias P = HiSynthPreset
        return P(
            name: name,
            oscillators: (0..<2).map { _ in
                P.Oscillator(waveform: wave(), level: value(P.Oscillator.levelRange, &random), pitch: value(P.Oscillator.pitchRange, &random))
            },
            envelope: P.Envelope(
                attack: value(P.Envelope.attackRange, &random), decay: value(P.Envelope.decayRange, &random),
                sustain: value(P.Envelope.sustainRange, &random), release: value(P.Envelope.releaseRange, &random)),
            filters: P.Filters(
                lowPass: P.Filter(cutoff: value(P.Filter.cutoffRange, &random), resonance: value(P.Filter.resonanceRange, &random)),
                highPass: P.Filter(cutoff: value(P.Filter.cutoffRange, &random), resonance: value(P.Filter.resonanceRange, &random))),
            lfos: (0..<3).map { _ in
                P.LFO(
                    waveform: wave(), depth: value(P.LFO.depthRange, &random), speed: value(P.LFO.speedRange, &random),
                    phase: value(P.LFO.phaseRange, &random), pitch: flag(), amplitude: flag(), filterLow: flag(), filterHigh: flag())
            },
            effects: P.Effects(
                reverb: P.Reverb(
                    on: flag(), size: value(P.Reverb.sizeRange, &random), type: HiSynthReverbType.allCases[Int(random.next() % 3)],
                    mix: value(P.Reverb.mixRange, &random)),
                delay: P.Delay(
                    on: flag(), feedback: value(P.Delay.feedbackRange, &random), time: value(P.Delay.timeRange, &random),
                    mix: value(P.Delay.mixRange, &random)),
                decimator: P.Decimator(on: flag(), rate: value(P.Decimator.rateRange, &random), mix: value(P.Decimator.mixRange, &random)),
                drive: P.Drive(on: flag(), gain: value(P.Drive.gainRange, &random), mix: value(P.Drive.mixRange, &random))))
    }

    @Test func randomPresetsRoundTripStringJSONString() throws {
        var random = SeededRandom(seed: 0x4853_796E_7468)
        var sawNegativeZero = false
        for _ in 0..<400 {
            let preset = Self.randomPreset(&random)
            let string = try preset.encoded()
            let decoded = try HiSynthPreset(string: string)
            let json = decoded.json()
            let fromJSON = try HiSynthPreset(jsonText: json)
            // Compared through JSON text too, so −0.0 against 0.0 (equal as numbers) is caught.
            #expect(fromJSON.json() == preset.json())
            #expect(try fromJSON.encoded() == string)
            sawNegativeZero = sawNegativeZero || json.contains("-0.0,")
        }
        #expect(sawNegativeZero)
    }
}
