import Foundation

/// The K-weighting of ITU-R BS.1770-4 at any sample rate: a high-shelf "pre-filter" (+4 dB above
/// about 1.7 kHz, modelling the head) followed by the RLB high-pass (about 38 Hz), as two biquads
/// derived from their analogue prototypes with the bilinear transform.
///
/// Prototype parameters (shelf: f0 = 1681.97 Hz, gain 3.99984 dB, Q = 0.70718; high-pass:
/// f0 = 38.1355 Hz, Q = 0.50033) reproduce the coefficients tabulated in BS.1770-4 for 48 kHz to
/// about 1e-8, so the same filter serves 44.1, 96 or 22.05 kHz. Runs in Double (the integrated
/// measure sums hours of squares).
public struct KWeightingFilter: Sendable {
    /// Feed-forward and feedback coefficients of one biquad (a0 = 1).
    public struct Biquad: Sendable, Hashable {
        public var b0, b1, b2, a1, a2: Double
    }

    /// The shelving pre-filter.
    public let shelf: Biquad
    /// The RLB high-pass.
    public let highPass: Biquad
    private var s1 = 0.0, s2 = 0.0, h1 = 0.0, h2 = 0.0

    /// - Parameter sampleRate: Hz (> 0).
    public init(sampleRate: Double) {
        let shelfK = tan(Double.pi * 1681.974450955533 / sampleRate)
        let shelfQ = 0.7071752369554196
        let vh = pow(10, 3.999843853973347 / 20)
        let vb = pow(vh, 0.4996667741545416)
        let shelfA0 = 1 + shelfK / shelfQ + shelfK * shelfK
        shelf = Biquad(
            b0: (vh + vb * shelfK / shelfQ + shelfK * shelfK) / shelfA0,
            b1: 2 * (shelfK * shelfK - vh) / shelfA0,
            b2: (vh - vb * shelfK / shelfQ + shelfK * shelfK) / shelfA0,
            a1: 2 * (shelfK * shelfK - 1) / shelfA0,
            a2: (1 - shelfK / shelfQ + shelfK * shelfK) / shelfA0)
        let passK = tan(Double.pi * 38.13547087602444 / sampleRate)
        let passQ = 0.5003270373238773
        let passA0 = 1 + passK / passQ + passK * passK
        highPass = Biquad(
            b0: 1, b1: -2, b2: 1,
            a1: 2 * (passK * passK - 1) / passA0,
            a2: (1 - passK / passQ + passK * passK) / passA0)
    }

    /// Filters one sample (transposed direct form II, both stages).
    public mutating func process(_ x: Double) -> Double {
        let y = shelf.b0 * x + s1
        s1 = shelf.b1 * x - shelf.a1 * y + s2
        s2 = shelf.b2 * x - shelf.a2 * y
        let z = highPass.b0 * y + h1
        h1 = highPass.b1 * y - highPass.a1 * z + h2
        h2 = highPass.b2 * y - highPass.a2 * z
        return z
    }

    /// Clears the filter state.
    public mutating func reset() {
        s1 = 0; s2 = 0; h1 = 0; h2 = 0
    }
}
