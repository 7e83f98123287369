/// Why a fret carries a note label: the "smart note label circles" of the fret overlay.
public enum FretLabelRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The key's tonic.
    case root
    /// A perfect fifth above the tonic.
    case fifth
    /// The scale's third above the tonic (major third when present, else minor).
    case third
    /// Another scale note labelled only so that no more than `FretLayout.maximumUnlabelledRun`
    /// zones in a row go without a label.
    case gapFill
}

/// A label circle on one zone.
public struct FretLabel: Sendable, Hashable {
    public var role: FretLabelRole
    /// The note name spelled for the key, with octave, e.g. "Bb3".
    public var name: String
}
