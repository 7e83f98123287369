/// A pattern sampled on a regular grid: per step, the motor's intensity and sharpness, and whether
/// the motor should run. The common ground of the waveform renderers (Android, web, rumble).
///
/// Each step takes the strongest haptic event active at the step's middle (intensity × control,
/// sharpness + control, the controls taken at the step's middle). A continuous event is active over [time, time + duration); a transient over
/// [time, time + `transientLength`), since a tap must last long enough for a motor to spin up.
public struct HapticTimeline: Sendable, Hashable {
    /// Length in seconds a transient occupies on a waveform target (30 ms: about the shortest pulse
    /// felt as vibration rather than a click, Remache-Vinueza et al. 2025).
    public static let transientLength = 0.03

    /// Seconds per step.
    public let step: Double
    /// Intensity 0…1 per step (0 where nothing plays).
    public private(set) var intensity: [Double]
    /// Sharpness 0…1 per step (0.5 where nothing plays).
    public private(set) var sharpness: [Double]
    /// Whether an event is active at the step (the motor should run, even at intensity 0).
    public private(set) var running: [Bool]
    /// Number of transients in the pattern, audio events ignored, envelopes set (for warnings).
    public let transientCount: Int
    public let audioEventCount: Int
    public let usesEnvelopes: Bool
    public let usesSharpness: Bool

    /// Longest pattern rendered, seconds (a hostile AHAP cannot make a renderer allocate without bound).
    public static let maximumLength = 600.0

    /// - Parameters:
    ///   - pattern: the pattern.
    ///   - step: seconds per step, 0.001…1.
    public init(_ pattern: HapticPattern, step: Double) {
        let step = step.isFinite ? min(max(step, 0.001), 1) : 0.01
        self.step = step
        let haptic = pattern.events.filter { $0.type.isHaptic }
        var end = 0.0
        for e in haptic {
            end = max(end, e.time + (e.type == .hapticTransient ? Self.transientLength : e.effectiveDuration))
        }
        end = min(end, Self.maximumLength)
        let count = Int((end / step).rounded(.up))
        intensity = Array(repeating: 0, count: count)
        sharpness = Array(repeating: 0.5, count: count)
        running = Array(repeating: false, count: count)
        transientCount = haptic.filter { $0.type == .hapticTransient }.count
        audioEventCount = pattern.events.count - haptic.count
        usesEnvelopes = haptic.contains { e in
            [.attackTime, .decayTime, .releaseTime].contains { e.value(of: $0) > 0 } || e.value(of: .sustained) == 0
        } || pattern.parameters.contains {
            [.hapticAttackTimeControl, .hapticDecayTimeControl, .hapticReleaseTimeControl].contains($0.id) && $0.value != 0
        }
        // Controls at each step's middle, in one sweep each.
        let middles = (0..<count).map { (Double($0) + 0.5) * step }
        let intensityControl = pattern.control(.hapticIntensityControl, at: middles)
        let sharpnessControl = pattern.control(.hapticSharpnessControl, at: middles)
        var sharp = false
        for e in haptic {
            let length = e.type == .hapticTransient ? Self.transientLength : e.effectiveDuration
            guard length > 0 else { continue }
            let first = max(0, Int((e.time / step).rounded(.down)))
            let last = min(count, Int(((e.time + length) / step).rounded(.up)))
            guard first < last else { continue }
            for k in first..<last {
                let t = (Double(k) + 0.5) * step
                // A step belongs to the event if the event covers its middle, or the event is shorter than a
                // step and starts inside it (so no event vanishes between grid points).
                let covers = t >= e.time && t < e.time + length
                let inside = length < step && e.time >= Double(k) * step && e.time < Double(k + 1) * step
                guard covers || inside else { continue }
                let i = min(1, max(0, e.intensity * intensityControl[k]))
                if !running[k] || i > intensity[k] {
                    intensity[k] = i
                    sharpness[k] = min(1, max(0, e.sharpness + sharpnessControl[k]))
                }
                running[k] = true
            }
            if e.sharpness != 0.5 { sharp = true }
        }
        usesSharpness = sharp || pattern.parameters.contains { $0.id == .hapticSharpnessControl && $0.value != 0 }
            || pattern.curves.contains { $0.id == .hapticSharpnessControl }
    }

    /// Number of steps.
    public var count: Int { intensity.count }
    /// Seconds covered.
    public var length: Double { Double(count) * step }
}
