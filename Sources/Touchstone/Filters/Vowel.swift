/// Vowel targets for `FormantFilter`: the first two formant frequencies of five vowels.
///
/// Values are the average adult male formants measured by Peterson & Barney, "Control Methods Used
/// in a Study of the Vowels", JASA 24(2), 1952, Table II, for the vowels of "hod" (a), "head" (e),
/// "heed" (i), "hawed" (o) and "who'd" (u):
///
/// | vowel | IPA | F1 (Hz) | F2 (Hz) |
/// |-------|-----|---------|---------|
/// | a     | ɑ   | 730     | 1090    |
/// | e     | ɛ   | 530     | 1840    |
/// | i     | i   | 270     | 2290    |
/// | o     | ɔ   | 570     | 840     |
/// | u     | u   | 300     | 870     |
public enum Vowel: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case a, e, i, o, u

    /// First formant (vowel openness) in Hz.
    public var f1: Float {
        switch self {
        case .a: 730
        case .e: 530
        case .i: 270
        case .o: 570
        case .u: 300
        }
    }

    /// Second formant (front/back) in Hz.
    public var f2: Float {
        switch self {
        case .a: 1090
        case .e: 1840
        case .i: 2290
        case .o: 840
        case .u: 870
        }
    }
}
