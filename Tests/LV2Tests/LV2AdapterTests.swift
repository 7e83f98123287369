import Enobarbus
import Hecate
import HiSynth
import Horatio
import ProsperoLV2
import ProsperoTestSupport
import Testing

/// The portable adapter layer without a host: port declarations, Turtle numbers, Hecate's face mapping.
@Suite struct LV2AdapterTests {
    @Test func portSymbolsAreUniqueCIdentifiersAndDefaultsInRange() {
        for plugin in LV2Catalog.plugins {
            let symbols = plugin.info.ports.map(\.symbol)
            #expect(Set(symbols).count == symbols.count, "\(plugin.info.uri)")
            for symbol in symbols {
                #expect(symbol.first.map { $0.isLetter || $0 == "_" } == true)
                #expect(symbol.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }, "\(symbol)")
            }
            for port in plugin.info.ports {
                if case .control(let c) = port.kind {
                    #expect(c.minimum <= c.defaultValue && c.defaultValue <= c.maximum, "\(port.symbol)")
                }
            }
        }
    }

    /// Every factory preset's values lie inside the port ranges (a host never clamps a preset) and read back
    /// from Turtle exactly.
    @Test func hiSynthPresetValuesFitThePortsAndReadBackExactly() throws {
        let controls = HiSynthLV2Controls.all
        for preset in HiSynthLV2.info.presets {
            #expect(preset.values.count == controls.count)
            for (value, control) in zip(preset.values, controls) {
                #expect(control.control.minimum <= value.value && value.value <= control.control.maximum, "\(preset.name) \(value.symbol) = \(value.value)")
                let text = LV2Turtle.number(value.value)
                #expect(Float(text)?.bitPattern == value.value.bitPattern, "\(text)")
            }
        }
        #expect(HiSynthLV2.info.presets.map(\.name) == HiSynthPreset.factory.map(\.name))
    }

    /// The ports' face mapping equals `HecatePerformance` on the same face, for random faces.
    @Test func hecateFaceMappingEqualsThePerformance() {
        var random = SeededRandom(seed: 27)
        let mapping = HecateLV2FaceMapping(.hecateDefaults)
        let performance = HecatePerformance()
        let signals = UnsafeMutableBufferPointer<Double>.allocate(capacity: HecateLV2FaceMapping.Signal.allCases.count)
        defer { signals.deallocate() }
        for _ in 0..<500 {
            let jaw = Float.random(in: 0...1, using: &random), brow = Float.random(in: 0...1, using: &random)
            let cheek = Float.random(in: 0...1, using: &random), pucker = Float.random(in: 0...1, using: &random)
            let smile = Float.random(in: 0...1, using: &random)
            let yaw = Float.random(in: -60...60, using: &random), pitch = Float.random(in: -40...40, using: &random)
            let roll = Float.random(in: -60...60, using: &random)
            var shapes = BlendshapeWeights()
            shapes[.jawOpen] = jaw; shapes[.browInnerUp] = brow; shapes[.cheekPuff] = cheek; shapes[.mouthPucker] = pucker
            shapes[.mouthSmileLeft] = smile; shapes[.mouthSmileRight] = smile
            let face = FaceFrame(timestamp: 0, blendshapes: shapes, head: HeadRotation(yaw: yaw, pitch: pitch, roll: roll))
            typealias S = HecateLV2FaceMapping.Signal
            signals[S.jawOpen.rawValue] = Double(jaw)
            signals[S.browInnerUp.rawValue] = Double(brow)
            signals[S.cheekPuff.rawValue] = Double(cheek)
            signals[S.mouthPucker.rawValue] = Double(pucker)
            signals[S.smile.rawValue] = Double(smile + smile) / 2
            signals[S.yaw.rawValue] = FaceSignal.normalisedAngle(Double(yaw), range: FaceSignal.yawRangeDegrees)
            signals[S.pitch.rawValue] = FaceSignal.normalisedAngle(Double(pitch), range: FaceSignal.pitchRangeDegrees)
            signals[S.roll.rawValue] = FaceSignal.normalisedAngle(Double(roll), range: FaceSignal.rollRangeDegrees)
            #expect(mapping.amounts(UnsafeBufferPointer(signals)) == performance.amounts(for: face))
        }
    }
}
