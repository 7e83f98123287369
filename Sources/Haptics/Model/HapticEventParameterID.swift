/// AHAP event parameters (`EventParameters[].ParameterID`), with their ranges and defaults.
///
/// All are normalised values, not seconds or Hz. Ranges and defaults follow Apple's
/// CHHapticParameter.h; out-of-range values are clamped, as Core Haptics clamps them.
public enum HapticEventParameterID: String, Sendable, Hashable, CaseIterable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    /// The values Core Haptics accepts.
    public var range: ClosedRange<Double> {
        switch self {
        case .audioPitch, .audioPan: return -1...1
        default: return 0...1
        }
    }

    /// The value an event has when the parameter is absent.
    ///
    /// Intensity 1 (no attenuation) and sharpness 0.5 (the middle of the actuator's range) are
    /// what an event without them feels like; envelope times 0 (fastest); `Sustained` 1 (true);
    /// audio volume and brightness 1, pitch and pan 0.
    public var defaultValue: Double {
        switch self {
        case .hapticIntensity, .sustained, .audioVolume, .audioBrightness: return 1
        case .hapticSharpness: return 0.5
        case .attackTime, .decayTime, .releaseTime, .audioPitch, .audioPan: return 0
        }
    }

    /// `value` clamped into `range` (a non-finite value becomes the default).
    public func clamp(_ value: Double) -> Double {
        guard value.isFinite else { return defaultValue }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
