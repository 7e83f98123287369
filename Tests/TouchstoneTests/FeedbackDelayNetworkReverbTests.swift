import Foundation
import Testing
import Touchstone

@Suite struct FeedbackDelayNetworkReverbTests {
    static let sampleRate = 48_000.0
    static let spec = ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 256, channelCount: 2)

    /// Impulse response (left and right) of a fully wet reverb.
    static func impulseResponse(decay: Float, damping: Float = 0, size: Float = 1, seconds: Double) -> (left: [Float], right: [Float]) {
        var reverb = FeedbackDelayNetworkReverb(decayTime: decay, size: size, damping: damping, mix: 1)
        reverb.prepare(spec)
        let count = Int(seconds * sampleRate)
        var impulse = [Float](repeating: 0, count: count)
        impulse[0] = 1
        return EffectsTestSignal.render(&reverb, left: impulse, right: impulse)
    }

    /// RT60 from the energy decay curve (Schroeder backward integration), fitting
    /// a least-squares line to the EDC between −5 and −35 dB (T30) and extrapolating to −60 dB.
    static func measuredRT60(_ left: [Float], _ right: [Float]) -> Double {
        var energy = [Double](repeating: 0, count: left.count)
        for n in left.indices {
            let l = Double(left[n]), r = Double(right[n])
            energy[n] = l * l + r * r
        }
        var edc = [Double](repeating: 0, count: energy.count)
        var tail = 0.0
        for n in stride(from: energy.count - 1, through: 0, by: -1) {
            tail += energy[n]
            edc[n] = tail
        }
        let total = edc[0]
        var sumT = 0.0, sumY = 0.0, sumTT = 0.0, sumTY = 0.0, points = 0.0
        for n in edc.indices {
            let level: Double = 10 * log10(edc[n] / total)
            guard level <= -5 && level >= -35 else { continue }
            let t: Double = Double(n) / Self.sampleRate
            sumT += t; sumY += level; sumTT += t * t; sumTY += t * level; points += 1
        }
        let slope: Double = (points * sumTY - sumT * sumY) / (points * sumTT - sumT * sumT)  // dB per second
        return -60 / slope
    }

    @Test(arguments: [Float(0.5), 1, 2, 4])
    func measuredRT60FollowsTheDecaySetting(decay: Float) {
        let response = Self.impulseResponse(decay: decay, seconds: Double(decay) * 1.5 + 0.5)
        let rt60 = Self.measuredRT60(response.left, response.right)
        let error = abs(rt60 - Double(decay)) / Double(decay)
        print("FDN RT60: set \(decay) s, measured \(String(format: "%.4f", rt60)) s, error \(String(format: "%.2f", error * 100)) %")
        // The README's figure is "within 0.4 %" (measured 0.02–0.39 %); 3× that at most.
        #expect(error < 0.012)
    }

    @Test(arguments: [Float(0.5), 2.5])
    func rt60HoldsAcrossSizes(size: Float) {
        let response = Self.impulseResponse(decay: 1.5, size: size, seconds: 3)
        let rt60 = Self.measuredRT60(response.left, response.right)
        #expect(abs(rt60 - 1.5) / 1.5 < 0.012, "size \(size): measured \(rt60)")
    }

    /// Damping shortens the high-frequency decay only: the tail's low band keeps
    /// the set RT60, its high band (near Nyquist, where T60_HF = 5 % of T60 at full
    /// damping) dies much faster.
    @Test func dampingShortensOnlyTheHighFrequencyDecay() {
        func lowBand(_ x: [Float]) -> [Float] {  // one-pole low-pass at 150 Hz
            let a = Float(1 - exp(-2 * Double.pi * 150 / Self.sampleRate))
            var y: Float = 0
            return x.map { y += a * ($0 - y); return y }
        }
        func highBand(_ x: [Float]) -> [Float] {  // first difference: +6 dB/oct, peak at Nyquist
            var previous: Float = 0
            return x.map { let d = $0 - previous; previous = $0; return d }
        }
        let silence = [Float](repeating: 0, count: 96_000)
        let plain = Self.impulseResponse(decay: 2, damping: 0, seconds: 2)
        let damped = Self.impulseResponse(decay: 2, damping: 1, seconds: 2)
        let plainHigh = Self.measuredRT60(highBand(plain.left), silence)
        let dampedHigh = Self.measuredRT60(highBand(damped.left), silence)
        let dampedLow = Self.measuredRT60(lowBand(damped.left), silence)
        #expect(abs(plainHigh - 2) / 2 < 0.1, "undamped: every band decays at the setting (\(plainHigh) s)")
        #expect(dampedHigh < 0.5, "damped high band RT60 \(dampedHigh) s")
        #expect(abs(dampedLow - 2) / 2 < 0.2, "damped low band RT60 \(dampedLow) s")
    }

    @Test func lineLengthsAreDistinctPrimesScaledBySize() {
        let reverb = FeedbackDelayNetworkReverb(size: 1)
        reverb.prepare(Self.spec)
        let lengths = reverb.lineLengths
        #expect(lengths.count == 8)
        #expect(Set(lengths).count == 8)
        for length in lengths {
            #expect((2..<Int(Double(length).squareRoot()) + 1).allSatisfy { length % $0 != 0 }, "\(length) is prime")
        }
        for (length, milliseconds) in zip(lengths, FeedbackDelayNetworkReverb.baseLineLengthsMilliseconds) {
            #expect(abs(Double(length) - milliseconds * 48) < 40)
        }
        reverb.size = 2
        #expect(zip(reverb.lineLengths, lengths).allSatisfy { abs(Double($0) - 2 * Double($1)) < 80 })
    }

    /// Left and right tails are decorrelated (orthogonal output taps).
    @Test func stereoTailsAreDecorrelated() {
        let response = Self.impulseResponse(decay: 2, seconds: 1.5)
        let left = response.left[9_600..<72_000], right = response.right[9_600..<72_000]
        var lr = 0.0, ll = 0.0, rr = 0.0
        for (l, r) in zip(left, right) {
            lr += Double(l) * Double(r); ll += Double(l) * Double(l); rr += Double(r) * Double(r)
        }
        let correlation = lr / (ll * rr).squareRoot()
        #expect(abs(correlation) < 0.3, "correlation \(correlation)")
    }

    @Test func mixZeroPassesTheDrySignal() {
        var reverb = FeedbackDelayNetworkReverb(mix: 0)
        reverb.prepare(Self.spec)
        let input = EffectsTestSignal.sine(frequency: 440, sampleRate: Self.sampleRate, count: 2_048)
        let out = EffectsTestSignal.render(&reverb, left: input, right: input)
        #expect(out.left == input && out.right == input)
    }

    @Test func tailFallsToExactSilenceWithoutDenormals() {
        let response = Self.impulseResponse(decay: 0.1, seconds: 12)
        #expect(response.left.allSatisfy(EffectsTestSignal.isClean))
        #expect(response.left.suffix(1_000).allSatisfy { $0 == 0 })
    }
}
