import Foundation
import HiSynth
import Testing

/// Presets reach the engine clamped with the ranges the preset model declares; every factory preset plays.
@Suite struct HiSynthPresetEngineTests {
    @Test func valuesOutsideTheUIRangesAreClampedByTheEngineSettings() throws {
        var p = try #require(HiSynthPreset.factory.first)
        p.oscillators[0] = .init(waveform: .rsaw, level: 5, pitch: 40)
        p.oscillators[1] = .init(waveform: .pulse, level: -1, pitch: -30)
        p.envelope = .init(attack: 9, decay: 0.01, sustain: 2, release: 60)
        p.filters = .init(lowPass: .init(cutoff: 30_000, resonance: 90), highPass: .init(cutoff: -5, resonance: -50))
        p.lfos[0] = .init(waveform: .triangle, depth: 3, speed: 0, phase: 7, pitch: true, amplitude: false, filterLow: true, filterHigh: false)
        p.effects.delay = .init(on: true, feedback: 300, time: 9, mix: -4)
        p.effects.drive = .init(on: true, gain: -80, mix: 150)
        p.effects.decimator = .init(on: true, rate: 90, mix: 100)
        p.effects.reverb = .init(on: true, size: 7, type: .hall, mix: 50)
        let s = HiSynthSettings(preset: p)
        #expect(s.layer1 == .init(waveform: .rsaw, level: 1, pitch: 12))
        #expect(s.layer2 == .init(waveform: .pulse, level: 0, pitch: -12))
        #expect(s.envelope == .init(attack: 2, decay: Double(Float(0.05)), sustain: 1, release: 10))   // the ranges are Float
        #expect(s.lowPass == .init(cutoff: 22_050, resonance: 40))
        #expect(s.highPass == .init(cutoff: 0, resonance: -20))
        #expect(s.lfo1.depth == 1 && s.lfo1.speed == 0.25 && s.lfo1.phase == 1 && s.lfo1.waveform == .triangle)
        #expect(s.lfo1.pitch && s.lfo1.filterLow && !s.lfo1.amplitude)
        #expect(s.effects.delayFeedback == 1 && s.effects.delayTime == 2 && s.effects.delayMix == 0)
        #expect(s.effects.driveGain == -40 && s.effects.driveMix == 1)
        #expect(s.effects.decimatorRate == 30 && s.effects.decimatorMix == 1)
        #expect(s.effects.reverbVariant == .largeHall2 && s.effects.reverbMix == 1)
    }

    @Test func factoryValuesMapToEngineUnits() throws {
        // HiSynth Key: saw 0.75 / sine 0.18994140625 at −12, LP 3584 Hz, hall 1 (medium hall), mix 0.1099853515625.
        let key = HiSynthSettings(preset: HiSynthPreset.factory[0])
        #expect(key.layer1 == .init(waveform: .saw, level: 0.75, pitch: 0))
        #expect(key.layer2 == .init(waveform: .sine, level: 0.18994140625, pitch: -12))
        #expect(key.lowPass.cutoff == 3584 && key.highPass.cutoff == 0)
        #expect(key.effects.reverbOn && key.effects.reverbVariant == .mediumHall && key.effects.reverbMix == 0.1099853515625)
        #expect(key.effects.delayFeedback == 0.5 && key.effects.delayMix == 0.5)
        // Init: release 0.04998779296875 is below the 0.05 bound and becomes 0.05 (still a hard cut).
        let initPreset = try #require(HiSynthPreset.factory.first { $0.name == "Init" })
        #expect(HiSynthSettings(preset: initPreset).envelope.release == Double(Float(0.05)))
    }

    @Test(arguments: HiSynthPreset.factory.map(\.name))
    func everyFactoryPresetPlaysAChordWithinTheCeiling(_ name: String) throws {
        let preset = try #require(HiSynthPreset.factory.first { $0.name == name })
        let chord: [UInt8] = [48, 55, 60, 64, 67, 72]
        var commands: [(Double, HiSynthEngine.Command)] = [(0, .apply(HiSynthSettings(preset: preset)))]
        for (i, n) in chord.enumerated() { commands.append((0.01 + 0.02 * Double(i), .noteOn(n))) }
        for n in chord { commands.append((1.2, .noteOff(n))) }
        let out = HiSynthRig.render(HiSynthSettings(), seconds: 2, commands)
        let all = out.left + out.right
        let ceiling = Float(pow(10, Double(HiSynthEngine.ceilingDecibels) / 20))
        #expect(all.allSatisfy { $0.isFinite })
        #expect(all.map(abs).max()! <= ceiling * 1.0001)
        #expect(HiSynthRig.rms(out.left, 22_050..<44_100) > 0.01, "\(name) is (nearly) silent")
    }
}
