/// One AHAP `Event`: a tap, a vibration, a tone or a waveform at a time in the pattern.
///
/// Parameters keep the order they were given in (so files write back as they were read); values
/// are clamped into each parameter's range when set. Absent parameters take their defaults
/// (`value(of:)`).
public struct HapticEvent: Sendable, Hashable {
    /// Longest continuous event Core Haptics plays, in seconds.
    public static let maximumContinuousDuration = 30.0

    public var type: HapticEventType
    /// Seconds from the start of the pattern, ≥ 0.
    public var time: Double {
        didSet { time = Self.clampTime(time) }
    }
    /// Seconds: how long a continuous event lasts before its release (0…30), or a transient's logical
    /// length (padding the pattern's end). nil when the file gave none.
    public var duration: Double? {
        didSet { duration = duration.map { Self.clampDuration($0, type) } }
    }
    public private(set) var parameters: [(id: HapticEventParameterID, value: Double)]
    /// `EventWaveformPath` of an `AudioCustom` event.
    public var waveformPath: String?
    /// `EventWaveformUseVolumeEnvelope` (iOS 15+).
    public var waveformUseVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled` (iOS 16+).
    public var waveformLoopEnabled: Bool?

    public init(_ type: HapticEventType, time: Double, duration: Double? = nil,
                parameters: [(HapticEventParameterID, Double)] = []) {
        self.type = type
        self.time = Self.clampTime(time)
        self.duration = duration.map { Self.clampDuration($0, type) }
        self.parameters = []
        for (id, value) in parameters { set(id, value) }
    }

    /// A haptic transient (tap).
    public static func transient(at time: Double, intensity: Double, sharpness: Double) -> HapticEvent {
        HapticEvent(.hapticTransient, time: time, parameters: [(.hapticIntensity, intensity), (.hapticSharpness, sharpness)])
    }

    /// A haptic continuous event (sustained vibration).
    public static func continuous(at time: Double, duration: Double, intensity: Double, sharpness: Double) -> HapticEvent {
        HapticEvent(.hapticContinuous, time: time, duration: duration,
                    parameters: [(.hapticIntensity, intensity), (.hapticSharpness, sharpness)])
    }

    /// Sets a parameter (clamped), replacing an earlier value for the same ID in place.
    public mutating func set(_ id: HapticEventParameterID, _ value: Double) {
        let v = id.clamp(value)
        if let i = parameters.firstIndex(where: { $0.id == id }) { parameters[i].value = v } else { parameters.append((id, v)) }
    }

    /// The parameter's value, or its default when the event does not set it.
    public func value(of id: HapticEventParameterID) -> Double {
        parameters.first { $0.id == id }?.value ?? id.defaultValue
    }

    /// Intensity 0…1.
    public var intensity: Double { value(of: .hapticIntensity) }
    /// Sharpness 0…1.
    public var sharpness: Double { value(of: .hapticSharpness) }

    /// How long the event sounds for the pattern-duration rule: the duration when given, else 0
    /// (a transient's own length is the device's, not the pattern's).
    public var effectiveDuration: Double { duration ?? 0 }

    static func clampTime(_ t: Double) -> Double { t.isFinite ? max(0, t) : 0 }

    static func clampDuration(_ d: Double, _ type: HapticEventType) -> Double {
        guard d.isFinite else { return 0 }
        return type.isContinuous ? min(max(0, d), maximumContinuousDuration) : max(0, d)
    }

    public static func == (a: HapticEvent, b: HapticEvent) -> Bool {
        a.type == b.type && a.time == b.time && a.duration == b.duration && a.waveformPath == b.waveformPath
            && a.waveformUseVolumeEnvelope == b.waveformUseVolumeEnvelope && a.waveformLoopEnabled == b.waveformLoopEnabled
            && a.parameters.count == b.parameters.count
            && zip(a.parameters, b.parameters).allSatisfy { $0.id == $1.id && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type); hasher.combine(time); hasher.combine(duration); hasher.combine(waveformPath)
        for p in parameters { hasher.combine(p.id); hasher.combine(p.value) }
    }
}
