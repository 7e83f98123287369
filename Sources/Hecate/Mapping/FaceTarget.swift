import Horatio

/// What a face mapping drives: a chord tone's level, the bass voice, or a sound-sculpting parameter.
public enum FaceTarget: Hashable, Sendable, Codable, CustomStringConvertible {
    case tone(ChordTone)
    case bass
    case parameter(SculptParameter)

    public var description: String {
        switch self {
        case .tone(let t): return "tone.\(t.rawValue)"
        case .bass: return "bass"
        case .parameter(let p): return "param.\(p.rawValue)"
        }
    }

    public init?(_ text: String) {
        if text == "bass" { self = .bass; return }
        if text.hasPrefix("tone."), let t = ChordTone(rawValue: String(text.dropFirst(5))) { self = .tone(t); return }
        if text.hasPrefix("param."), let p = SculptParameter(rawValue: String(text.dropFirst(6))) {
            self = .parameter(p)
            return
        }
        return nil
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let target = FaceTarget(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "'\(text)' is not a target (tone.root|third|fifth|seventh|ninth|octave, bass, param.\(SculptParameter.allCases.map(\.rawValue).joined(separator: "|")))"))
        }
        self = target
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// The sound-sculpting controls a face can move, each a normalised 0…1 amount that the engine
/// maps into the current voice preset's range.
public enum SculptParameter: String, Hashable, Sendable, Codable, CaseIterable {
    /// Low-pass cutoff sweep within the preset's filter range.
    case cutoff
    /// Filter resonance within the preset's range.
    case resonance
    /// Formant F1 (vowel openness).
    case formantF1
    /// Formant F2 (vowel shape, front/back).
    case formantF2
    /// Octave shimmer level (tone bank 6), capped by the preset's brightness cap.
    case brightness
}
