import Foundation
import HiSynth
import Testing
import Touchstone

/// Each effect does its thing, measured from rendered audio; the limiter holds the ceiling.
@Suite struct HiSynthEffectsTests {
    static let fs = HiSynthRig.sampleRate

    /// Fraction of samples equal to the one before within float rounding (a sample-and-hold repeats its
    /// held value; the decimator's dry/wet sum x + 1·(held − x) may round by an ulp).
    static func repeatFraction(_ x: [Float], _ range: Range<Int>) -> Double {
        var repeats = 0
        for i in range.dropFirst() where abs(x[i] - x[i - 1]) < 1e-6 { repeats += 1 }
        return Double(repeats) / Double(range.count - 1)
    }

    @Test(arguments: [(Float(30), true), (10, true), (30, false)])
    func decimatorHoldsSamples(_ rate: Float, _ on: Bool) {
        var s = HiSynthRig.plain(level: 0.5)
        s.effects.decimatorOn = on
        s.effects.decimatorRate = rate
        s.effects.decimatorMix = 1
        let out = HiSynthRig.render(s, seconds: 0.6, [(0, .noteOn(81))])
        let fraction = Self.repeatFraction(out.left, 8_820..<26_460)
        // Holding each sample 256^(rate/100) samples repeats a share 1 − 1/that of them.
        let expected = on ? 1 - 1 / pow(256, Double(rate) / 100) : 0
        #expect(abs(fraction - expected) < 0.01, "rate \(rate) on \(on): \(fraction) vs \(expected)")
    }

    @Test func driveSoftClipsIntoOddHarmonics() {
        func thirdHarmonic(on: Bool, gain: Float) -> Double {
            var s = HiSynthRig.plain(level: 0.5)
            s.effects.driveOn = on
            s.effects.driveGain = gain
            s.effects.driveMix = 1
            let out = HiSynthRig.render(s, seconds: 0.6, [(0, .noteOn(69))])
            let range = 4_410..<26_460
            return 20 * log10(HiSynthRig.tone(out.left, 1_320, range) / HiSynthRig.tone(out.left, 440, range))
        }
        #expect(thirdHarmonic(on: false, gain: 20) < -80)
        // +20 dB into the cubic clipper: a 0.25 sine becomes nearly square (H3 about −10 dB).
        let hard = thirdHarmonic(on: true, gain: 20)
        #expect(hard > -14 && hard < -9)
        // −10 dB: u = 0.079, the cubic's H3/H1 = (u²/8)/(1.5 − 0.375·u²)·... ≈ −54 dB: clean.
        #expect(thirdHarmonic(on: true, gain: -10) < -45)
    }

    @Test func delayRepeatsAtItsTimeWithItsFeedback() {
        var s = HiSynthRig.plain(level: 0.5)
        s.effects.delayOn = true
        s.effects.delayTime = 0.25
        s.effects.delayFeedback = 0.5
        s.effects.delayMix = 0.5
        let out = HiSynthRig.render(s, seconds: 1.1, [(0.1, .noteOn(69)), (0.15, .noteOff(69))])
        func burst(_ k: Int) -> Double {
            let start = 0.1 + 0.25 * Double(k) + 0.005 + 0.008
            return HiSynthRig.tone(out.left, 440, Int(start * Self.fs)..<Int((start + 0.03) * Self.fs))
        }
        let dry = burst(0), first = burst(1), second = burst(2), third = burst(3)
        // out = dry/2 + delayed/2; the k-th repeat is feedback^(k−1) of the input.
        #expect(abs(first / dry - 1) < 0.03)
        #expect(abs(second / first - 0.5) < 0.03)
        #expect(abs(third / second - 0.5) < 0.03)
        // Silence between the repeats.
        #expect(HiSynthRig.peak(out.left, Int(0.23 * Self.fs)..<Int(0.34 * Self.fs)) < 1e-3)
    }

    /// The tail's RT60 in seconds after a short note (the slope of its level in dB from 5 to 35 dB
    /// below its peak, fitted by least squares), its peak level, and whether it is stereo.
    static func tail(_ variant: HiSynthReverbVariant, on: Bool = true) -> (rt60: Double, late: Double, stereo: Bool) {
        // A low saw excites many of the network's modes (a sine burst excites only a few).
        var s = HiSynthRig.plain(level: 0.3, waveform: .saw)
        s.effects.reverbOn = on
        s.effects.reverbVariant = variant
        s.effects.reverbMix = 1
        let out = HiSynthRig.render(s, seconds: 4, [(0.1, .noteOn(45)), (0.15, .noteOff(45))])
        let window = 441
        var levels: [(Double, Double)] = []
        var i = Int(0.16 * fs)
        while i + window <= out.left.count {
            levels.append((Double(i) / fs, 20 * log10(max(HiSynthRig.rms(out.left, i..<(i + window)), 1e-12))))
            i += window
        }
        let late = 20 * log10(max(HiSynthRig.rms(out.left, Int(0.4 * fs)..<Int(1.0 * fs)), 1e-12))
        let top = levels.map(\.1).max()!
        let peakIndex = levels.firstIndex { $0.1 == top }!
        let fit = levels[peakIndex...].filter { $0.1 < top - 5 && $0.1 > top - 35 }
        guard fit.count > 3 else { return (0, late, out.left != out.right) }
        let mt = fit.map(\.0).reduce(0, +) / Double(fit.count), ml = fit.map(\.1).reduce(0, +) / Double(fit.count)
        let slope = fit.map { ($0.0 - mt) * ($0.1 - ml) }.reduce(0, +) / fit.map { ($0.0 - mt) * ($0.0 - mt) }.reduce(0, +)
        return (-60 / slope, late, out.left != out.right)
    }

    @Test func reverbVariantsRingLongerInTheOriginalsOrder() {
        let order: [HiSynthReverbVariant] = [.smallRoom, .mediumRoom, .largeRoom, .mediumHall, .largeHall, .largeHall2]
        let tails = order.map { Self.tail($0) }
        for k in 1..<tails.count {
            #expect(tails[k].rt60 > tails[k - 1].rt60, "\(order[k]) \(tails[k].rt60) s after \(order[k - 1]) \(tails[k - 1].rt60) s")
        }
        // The measured RT60 at 440 Hz is the variant's decay time (damping shortens only the highs).
        for (v, t) in zip(order, tails) { #expect(abs(t.rt60 / Double(v.decayTime) - 1) < 0.1, "\(v): RT60 \(t.rt60) s") }
        #expect(Self.tail(.plate).stereo)
        // Off: nothing after the note (the wet share is 0), mono; on, the hall still rings 0.25…0.85 s later.
        let off = Self.tail(.mediumHall, on: false)
        #expect(!off.stereo)
        #expect(off.late < -90)
        #expect(tails[3].late > -40)
    }

    @Test func reverbTypeAndSizeMapAsTheOriginal() {
        #expect(HiSynthReverbVariant.variant(typeCode: 1, size: 1) == .smallRoom)
        #expect(HiSynthReverbVariant.variant(typeCode: 1, size: 2) == .mediumRoom)
        #expect(HiSynthReverbVariant.variant(typeCode: 1, size: 3) == .largeRoom)
        #expect(HiSynthReverbVariant.variant(typeCode: 2, size: 1) == .mediumHall)
        #expect(HiSynthReverbVariant.variant(typeCode: 2, size: 2) == .largeHall)
        #expect(HiSynthReverbVariant.variant(typeCode: 2, size: 3) == .largeHall2)
        #expect(HiSynthReverbVariant.variant(typeCode: 0, size: 2) == .plate)
    }

    @Test func sixteenLoudVoicesStayBelowTheCeiling() {
        var s = HiSynthRig.plain(level: 1, waveform: .square)
        s.layer2 = .init(waveform: .saw, level: 1, pitch: 12)
        s.lowPass = .init(cutoff: 2_000, resonance: 40)
        s.effects.driveOn = true
        s.effects.driveGain = 20
        s.effects.driveMix = 1
        s.effects.delayOn = true
        s.effects.delayFeedback = 1
        s.effects.reverbOn = true
        s.effects.reverbMix = 1
        s.lfo1 = .init(waveform: .square, depth: 1, speed: 20, pitch: true, amplitude: true, filterLow: true, filterHigh: true)
        let commands: [(Double, HiSynthEngine.Command)] = (0..<8).map { (0.01 * Double($0), .noteOn(UInt8(40 + 5 * $0))) }
        let out = HiSynthRig.render(s, seconds: 2, commands)
        let ceiling = Float(pow(10, Double(HiSynthEngine.ceilingDecibels) / 20))
        let all = out.left + out.right
        #expect(all.allSatisfy { $0.isFinite })
        #expect(all.map(abs).max()! <= ceiling * 1.0001)
        #expect(all.map(abs).max()! > 0.8 * ceiling)
    }

    @Test func switchingEffectsAndFiltersMidNoteDoesNotClick() {
        var s = HiSynthRig.plain(level: 0.5)
        var changed = s
        changed.lowPass = .init(cutoff: 300, resonance: 6)
        changed.effects.delayOn = true
        changed.effects.reverbOn = true
        changed.effects.reverbMix = 0.6
        changed.effects.reverbVariant = .largeHall
        changed.layer1.level = 0.2
        s.effects.reverbOn = true
        s.effects.reverbMix = 0.3
        let out = HiSynthRig.render(s, seconds: 1, [(0, .noteOn(69)), (0.5, .apply(changed))])
        // The sine's own slope bounds every step (0.25 · 2π·440/fs ≈ 0.016) plus the reverb's smear.
        var largest: Float = 0
        for i in Int(0.45 * Self.fs)..<Int(0.6 * Self.fs) { largest = max(largest, abs(out.left[i] - out.left[i - 1])) }
        #expect(largest < 0.03)
    }
}
