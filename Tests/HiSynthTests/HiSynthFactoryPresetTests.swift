import HiSynth
import Testing

@Suite struct HiSynthFactoryPresetTests {
    @Test func factoryStringsAreTheVectorsInAppOrder() throws {
        #expect(HiSynthPreset.factoryStrings == (try HiSynthVectors.strings()))
        #expect(HiSynthPreset.factory.count == 15)
        #expect(HiSynthPreset.factory.first?.name == "HiSynth Key")
        #expect(HiSynthPreset.initial.name == "Init")
    }

    @Test func factoryValuesMatchThePythonDecodedVectors() throws {
        let vectors = try HiSynthVectors.factory()
        #expect(vectors.count == HiSynthPreset.factory.count)
        for (preset, vector) in zip(HiSynthPreset.factory, vectors) {
            HiSynthVectors.expectMatches(preset, vector.decoded)
        }
    }

    @Test func springPluckKeepsTheNegativeZeroPitch() {
        let spring = HiSynthPreset.factory.first { $0.name == "Spring Pluck" }
        #expect(spring?.oscillators[1].pitch.bitPattern == 0x8000)
    }
}
