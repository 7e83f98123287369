import Foundation
import ProsperoTestSupport
import Testing
import Touchstone

@Suite struct FormantFilterTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    static func impulseResponse(_ filter: inout FormantFilter, count: Int = 16_384) -> [Float] {
        var signal = [Float](repeating: 0, count: count)
        signal[0] = 1
        signal.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: count, by: 256) {
                filter.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<min(count, start + 256)]))
            }
        }
        return signal
    }

    static func gainDB(_ ir: [Float], at hz: Double) -> Double {
        20 * log10(Spectrum.magnitude(of: ir, at: hz, sampleRate: 48_000))
    }

    @Test(arguments: Vowel.allCases)
    func eachFormantPeaksAtItsVowelFrequency(_ vowel: Vowel) {
        var f1Only = FormantFilter(vowel: vowel, q: 10, mix: (0, 1, 0))
        f1Only.prepare(Self.spec)
        let ir1 = Self.impulseResponse(&f1Only)
        // Normalized band-pass: 0 dB at the centre, falling off either side.
        #expect(abs(Self.gainDB(ir1, at: Double(vowel.f1))) < 0.01)
        #expect(Self.gainDB(ir1, at: Double(vowel.f1) * 1.5) < -10)
        #expect(Self.gainDB(ir1, at: Double(vowel.f1) / 1.5) < -10)

        var f2Only = FormantFilter(vowel: vowel, q: 10, mix: (0, 0, 1))
        f2Only.prepare(Self.spec)
        let ir2 = Self.impulseResponse(&f2Only)
        #expect(abs(Self.gainDB(ir2, at: Double(vowel.f2))) < 0.01)
        #expect(Self.gainDB(ir2, at: Double(vowel.f2) * 1.5) < -10)
    }

    @Test func vowelTableIsPetersonAndBarney() {
        // Average adult male formants, Peterson & Barney (1952), Table II.
        let table: [Vowel: (Float, Float)] = [.a: (730, 1090), .e: (530, 1840), .i: (270, 2290), .o: (570, 840), .u: (300, 870)]
        for (vowel, formants) in table {
            #expect(vowel.f1 == formants.0 && vowel.f2 == formants.1)
        }
    }

    /// The settled block path (both band-passes ticking in the lanes of one vector) against the scalar loop it
    /// replaced (two `SVFState.tick`s per sample on the filters' settled coefficients), bit for bit: loud noise,
    /// then a tail decaying through the state's flush threshold.
    @Test func settledBlockPathMatchesTwoScalarFilters() {
        var random = SeededRandom(seed: 28)
        let mix: (dry: Float, f1: Float, f2: Float) = (0.2, 1, 0.7)
        var block = FormantFilter(vowel: .o, q: 9, mix: mix)
        block.prepare(Self.spec)
        var first = StateVariableFilter(mode: .bandPassNormalized, cutoff: Vowel.o.f1, q: 9, smoothingTime: 0.03)
        var second = StateVariableFilter(mode: .bandPassNormalized, cutoff: Vowel.o.f2, q: 9, smoothingTime: 0.03)
        first.prepare(Self.spec)
        second.prepare(Self.spec)
        var input = (0..<65_536).map { _ in random.float(-4...4) }
        for i in 8_192..<65_536 { input[i] = 0 }
        var output = input
        output.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: input.count, by: 256) {
                block.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + 256)]))
            }
        }
        let c1 = first.currentCoefficients, c2 = second.currentCoefficients
        var s1 = first.channelState, s2 = second.channelState
        let expected = input.map { x -> Float in
            let band1 = s1.tick(x, c1).band
            let band2 = s2.tick(x, c2).band
            return mix.dry * x + mix.f1 * (c1.k * band1) + mix.f2 * (c2.k * band2)
        }
        let firstDifference = output.indices.first { output[$0].bitPattern != expected[$0].bitPattern }
        #expect(firstDifference == nil, "first difference at \(firstDifference ?? -1)")
        #expect(output[65_535] == 0 && s1 == SVFState() && s2 == SVFState())
    }

    /// `process(_:after:as:)` against the low-pass's block pass and then the formants': the same bits, with
    /// everything settled, the low-pass gliding, the formants gliding, over blocks of 1…256 samples, and a NaN
    /// input on the way (every state recovers at the end of its block in both).
    @Test func seriesPassMatchesTwoPasses() {
        var random = SeededRandom(seed: 30)
        var input = (0..<6_000).map { _ in random.float(-1...1) }
        input[4_321] = .nan
        let blockLengths = [1, 2, 16, 5, 256, 16, 3, 64, 16, 16, 255]
        var lowPass = StateVariableFilter(mode: .lowPass, cutoff: 900, q: 2, smoothingTime: 0.001)
        var formant = FormantFilter(vowel: .o, q: 6, mix: (0.3, 0.8, 0.5), smoothingTime: 0.001)
        lowPass.prepare(Self.spec)
        formant.prepare(Self.spec)
        var seriesLowPass = lowPass, seriesFormant = formant
        var apartOut = input, seriesOut = input
        var start = 0, round = 0, settledBlocks = 0
        while start < input.count {
            if round % 6 == 2 { lowPass.setCutoff(Float(300 + 411 * (round % 7))); seriesLowPass.setCutoff(Float(300 + 411 * (round % 7))) }
            if round % 9 == 4 { formant.setVowel(Vowel.allCases[round % Vowel.allCases.count]); seriesFormant.setVowel(Vowel.allCases[round % Vowel.allCases.count]) }
            if round % 13 == 7 { formant.setMix(dry: 0.1, f1: 1, f2: 0.2); seriesFormant.setMix(dry: 0.1, f1: 1, f2: 0.2) }
            let n = min(blockLengths[round % blockLengths.count], input.count - start)
            if !seriesLowPass.isSmoothing && !seriesFormant.isSmoothing { settledBlocks += 1 }
            apartOut.withUnsafeMutableBufferPointer { buffer in
                let block = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + n)])
                lowPass.process(block, as: LowPassResponse.self)
                formant.process(block)
            }
            seriesOut.withUnsafeMutableBufferPointer { buffer in
                seriesFormant.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + n)]),
                                      after: &seriesLowPass, as: LowPassResponse.self)
            }
            start += n
            round += 1
        }
        let firstDifference = apartOut.indices.first { apartOut[$0].bitPattern != seriesOut[$0].bitPattern }
        #expect(firstDifference == nil, "first difference at \(firstDifference ?? -1)")
        #expect(seriesLowPass.channelState == lowPass.channelState)
        // Both paths ran: the one-pass path in about half the blocks (1 ms glides end within a few), two passes in the rest.
        #expect(settledBlocks > round / 4 && settledBlocks < round, "\(settledBlocks) of \(round) blocks settled")
    }

    @Test func dryOnlyIsTransparent() {
        var filter = FormantFilter(vowel: .e, q: 6, mix: (1, 0, 0))
        filter.prepare(Self.spec)
        var random = SeededRandom(seed: 5)
        let input = (0..<512).map { _ in random.float(-1...1) }
        var output = input
        output.withUnsafeMutableBufferPointer { filter.process($0) }
        #expect(output == input)
    }

    @Test func vowelChangesAndMixChangesGlideWithoutJumps() {
        var filter = FormantFilter(vowel: .a, q: 8, mix: (0.2, 1, 0.8), smoothingTime: 0.03)
        filter.prepare(Self.spec)
        // A steady 150 Hz saw-like input.
        var osc = BandLimitedOscillator(waveform: .saw, frequency: 150)
        osc.prepare(Self.spec)
        var before = Render.generate(&osc, count: 4_800)
        before.withUnsafeMutableBufferPointer { filter.process($0) }
        filter.setVowel(.i)
        filter.setMix(dry: 0, f1: 0.5, f2: 1)
        _ = filter.processSample(osc.nextSample())
        // One sample in, the formants have moved only slightly, in pitch.
        #expect(filter.formants.f1 < 730 && filter.formants.f1 > 725)
        var after = Render.generate(&osc, count: 4_800)
        after.withUnsafeMutableBufferPointer { filter.process($0) }
        #expect(filter.formants.f1 == 270 && filter.formants.f2 == 2290)
        #expect(filter.mix.dry == 0 && filter.mix.f1 == 0.5 && filter.mix.f2 == 1)
        #expect(Render.isClean(after))
        // The output never jumps more than the input's own largest step allows.
        let jumps = zip(after.dropFirst(), after).map { abs($0 - $1) }
        #expect(jumps.max()! < 0.5)
    }
}
