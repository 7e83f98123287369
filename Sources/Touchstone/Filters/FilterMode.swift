/// The responses of the state-variable filter, as mixes of its input v0, band output v1 and low output v2
/// (Simper's formulation; the same weights as Faust's `fi.svf`).
///
/// With k = 1/Q: low-pass v2; band-pass v1 (peak gain Q at the cutoff, as `fi.svf.bp`); normalized
/// band-pass k·v1 (0 dB at the centre, for formants); high-pass v0 − k·v1 − v2; notch v0 − k·v1;
/// peak v0 − k·v1 − 2·v2 (low minus high); all-pass v0 − 2k·v1.
public enum FilterMode: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case lowPass
    case highPass
    case bandPass
    case bandPassNormalized
    case notch
    case peak
    case allPass

    /// Weights of v0, v1 and v2 that produce this response; the band weight is
    /// `bandConstant + bandPerK · k` so it follows a moving Q without a switch per sample.
    @inlinable
    public var mixWeights: (input: Float, bandConstant: Float, bandPerK: Float, low: Float) {
        switch self {
        case .lowPass: (0, 0, 0, 1)
        case .highPass: (1, 0, -1, -1)
        case .bandPass: (0, 1, 0, 0)
        case .bandPassNormalized: (0, 0, 1, 0)
        case .notch: (1, 0, -1, 0)
        case .peak: (1, 0, -1, -2)
        case .allPass: (1, 0, -2, 0)
        }
    }
}
