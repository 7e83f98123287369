import ProsperoTestSupport
import Testing
import Touchstone

/// `StateVariableFilterLanes` against eight settled scalar `StateVariableFilter`s: the same arithmetic in
/// the same order, so the outputs are equal, not merely close.
struct StateVariableFilterLanesTests {
    @Test func lanesEqualScalarFilters() {
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
        var random = SeededRandom(seed: 7)
        var filters = (0..<8).map { _ in
            StateVariableFilter(mode: .lowPass, cutoff: random.float(30...20_000), q: random.float(0.2...20))
        }
        for v in 0..<8 { filters[v].prepare(spec) }
        var lanes = StateVariableFilterLanes()
        for v in 0..<8 { lanes.load(v, from: filters[v]) }
        var mismatches = 0
        var energy: Float = 0
        for i in 0..<4_800 {
            var x = SIMD8<Float>()
            for v in 0..<8 { x[v] = i < 2_400 ? random.float(-1...1) : 0 }   // noise, then the decay
            let (band, low) = lanes.tick(x)
            for v in 0..<8 {
                let expectedLow = filters[v].processSample(x[v], as: LowPassResponse.self)
                if low[v] != expectedLow { mismatches += 1 }
                energy += low[v] * low[v] + band[v] * band[v]
            }
        }
        #expect(mismatches == 0)
        #expect(energy > 1)                 // the filters passed something
        var stored = filters
        for v in 0..<8 { lanes.store(v, into: &stored[v]) }
        for v in 0..<8 { #expect(stored[v].channelState == filters[v].channelState) }
    }

    @Test func bandOutputEqualsScalarBandPass() {
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
        var filter = StateVariableFilter(mode: .bandPass, cutoff: 1_000, q: 3)
        filter.prepare(spec)
        var lanes = StateVariableFilterLanes()
        for v in 0..<8 { lanes.load(v, from: filter) }
        var scalar = filter
        for i in 0..<1_000 {
            let x = Float(i % 37) / 37 - 0.5
            let band = lanes.tick(SIMD8(repeating: x)).band
            #expect(band[5] == scalar.processSample(x, as: BandPassResponse.self))
        }
    }
}
