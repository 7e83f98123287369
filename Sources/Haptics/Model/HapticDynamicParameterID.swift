/// AHAP dynamic parameters (`Parameter` and `ParameterCurve` entries): controls applied to every
/// event of the pattern from their time on.
public enum HapticDynamicParameterID: String, Sendable, Hashable, CaseIterable {
    /// Multiplies event intensity, 0…1 (default 1).
    case hapticIntensityControl = "HapticIntensityControl"
    /// Added to event sharpness, −1…1 (default 0).
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    /// Multiplies audio volume, 0…1 (default 1).
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioPitchControl = "AudioPitchControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// The values Core Haptics accepts: 0…1 for the multiplying controls, −1…1 for the added ones.
    public var range: ClosedRange<Double> {
        isMultiplier ? 0...1 : -1...1
    }

    /// True for the controls that multiply (intensity, volume); the others add.
    public var isMultiplier: Bool { self == .hapticIntensityControl || self == .audioVolumeControl }

    /// 1 for the multiplying controls, 0 for the added ones.
    public var defaultValue: Double { isMultiplier ? 1 : 0 }

    /// Whether the parameter may be used in a `ParameterCurve` (intensity, sharpness and the four
    /// audio controls volume, pan, pitch, brightness; the envelope-time controls may not).
    public var isCurveParameter: Bool {
        switch self {
        case .hapticIntensityControl, .hapticSharpnessControl, .audioVolumeControl, .audioPanControl,
             .audioPitchControl, .audioBrightnessControl: return true
        default: return false
        }
    }

    /// `value` clamped into `range` (a non-finite value becomes the default).
    public func clamp(_ value: Double) -> Double {
        guard value.isFinite else { return defaultValue }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
