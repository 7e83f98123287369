/// The seed's HapticManager patterns as data (AHAP patterns), with the seed's numbers, and the numbers
/// the seed leaves open chosen and named here.
///
/// | Pattern | Events |
/// |---|---|
/// | tap (`triggerNormalHaptic`) | one transient, intensity 0.4, sharpness 0.2, at 0 |
/// | adaptive (`triggerMultiPattern`) | at t = k/f: f ≤ 2 Hz → continuous 0.2 s, I = 0.7·a, S = 0.3; f > 2 Hz → transient, I = 0.6·a, S = 0.5 |
/// | gradual (`triggerGradualHaptic`) | 20 continuous 0.1 s events over 2 s, I = peak·exp(−(t−1)²/(2·0.35²)) at each event's centre, S = 0.3 |
/// | heavy (`triggerHeavyHaptic`) | 5 continuous 0.2 s events back to back, I = 1.0, 0.8, 0.6, 0.4, 0.2, S = 0.4 |
public enum HapticManager {
    /// Tap: intensity and sharpness of `triggerNormalHaptic` (seed).
    public static let tapIntensity = 0.4
    public static let tapSharpness = 0.2

    /// Adaptive: the rate (Hz) at and below which events are continuous (seed: `frequency <= 2.0`).
    public static let adaptiveContinuousMaximumRate = 2.0
    /// Adaptive, low rates: continuous event length (s), intensity factor and sharpness (seed).
    public static let adaptiveContinuousDuration = 0.2
    public static let adaptiveContinuousIntensityFactor = 0.7
    public static let adaptiveContinuousSharpness = 0.3
    /// Adaptive, high rates: transient intensity factor and sharpness (seed).
    public static let adaptiveTransientIntensityFactor = 0.6
    public static let adaptiveTransientSharpness = 0.5
    /// LFO rates the games use (seed: 0.1…10 Hz); adaptive clamps its rate into this range.
    public static let rateRange = 0.1...10.0

    /// Gradual: default peak intensity (seed), event length and total length (seed: 0.1 s over 2 s).
    public static let gradualDefaultIntensity = 0.6
    public static let gradualEventDuration = 0.1
    public static let gradualLength = 2.0
    /// Gradual: standard deviation of the bell in seconds (chosen: 0.35 s, so the first and last events
    /// sit at about 2.5 % of the peak, and the bell fills the 2 s without a flat top).
    public static let gradualWidth = 0.35
    /// Gradual: sharpness (chosen: 0.3, the soft side, for a swell rather than a buzz).
    public static let gradualSharpness = 0.3

    /// Heavy: event length (seed: 0.2 s) and intensities (chosen: five steps falling by 0.2 from full,
    /// 1 s in all, so the last step is still clearly felt).
    public static let heavyEventDuration = 0.2
    public static let heavyIntensities = [1.0, 0.8, 0.6, 0.4, 0.2]
    /// Heavy: sharpness (chosen: 0.4, rounder than the adaptive transients, for weight).
    public static let heavySharpness = 0.4

    /// `triggerNormalHaptic()`: one short tap.
    public static func tap(at time: Double = 0) -> HapticPattern {
        HapticPattern(events: [tapEvent(at: time)])
    }

    /// The tap as one event.
    public static func tapEvent(at time: Double) -> HapticEvent {
        .transient(at: time, intensity: tapIntensity, sharpness: tapSharpness)
    }

    /// One event of `triggerMultiPattern(frequency:amplitude:)` at `time`.
    ///
    /// - Parameters:
    ///   - rate: LFO rate in Hz (clamped to 0.1…10).
    ///   - amplitude: 0…1 (clamped).
    ///   - time: when the event starts, seconds from the pattern's start.
    public static func adaptiveEvent(rate: Double, amplitude: Double, at time: Double) -> HapticEvent {
        let a = amplitude.isFinite ? min(max(amplitude, 0), 1) : 0
        let f = clampRate(rate)
        if f <= adaptiveContinuousMaximumRate {
            return .continuous(at: time, duration: adaptiveContinuousDuration,
                               intensity: adaptiveContinuousIntensityFactor * a, sharpness: adaptiveContinuousSharpness)
        }
        return .transient(at: time, intensity: adaptiveTransientIntensityFactor * a, sharpness: adaptiveTransientSharpness)
    }

    /// The adaptive pattern repeated at the LFO's rate: an event at each t = k/f, 0 ≤ t < `duration`.
    ///
    /// - Parameters:
    ///   - rate: Hz, clamped to 0.1…10.
    ///   - amplitude: 0…1.
    ///   - duration: seconds, 0…30 (clamped); at least one event is made.
    public static func adaptive(rate: Double, amplitude: Double, duration: Double = 2) -> HapticPattern {
        let f = clampRate(rate)
        let d = duration.isFinite ? min(max(duration, 0), 30) : 0
        var events: [HapticEvent] = []
        var k = 0
        while true {
            let t = Double(k) / f
            guard k == 0 || t < d else { break }
            events.append(adaptiveEvent(rate: f, amplitude: amplitude, at: t))
            k += 1
        }
        return HapticPattern(events: events)
    }

    /// `triggerGradualHaptic(intensity:)`: a swell up and down over 2 s.
    ///
    /// - Parameters:
    ///   - intensity: the bell's peak, 0…1 (default 0.6).
    ///   - start: when the swell starts, seconds from the pattern's start.
    public static func gradual(intensity: Double = gradualDefaultIntensity, at start: Double = 0) -> HapticPattern {
        let peak = intensity.isFinite ? min(max(intensity, 0), 1) : gradualDefaultIntensity
        let count = Int((gradualLength / gradualEventDuration).rounded())
        let middle = gradualLength / 2
        let events = (0..<count).map { k -> HapticEvent in
            let t = Double(k) * gradualEventDuration
            let centre = t + gradualEventDuration / 2 - middle
            let level = peak * Self.exp(-(centre * centre) / (2 * gradualWidth * gradualWidth))
            return .continuous(at: start + t, duration: gradualEventDuration, intensity: level, sharpness: gradualSharpness)
        }
        return HapticPattern(events: events)
    }

    /// `triggerHeavyHaptic()`: strong, then falling.
    public static func heavy(at start: Double = 0) -> HapticPattern {
        HapticPattern(events: heavyIntensities.enumerated().map { k, level in
            .continuous(at: start + Double(k) * heavyEventDuration, duration: heavyEventDuration, intensity: level, sharpness: heavySharpness)
        })
    }

    static func clampRate(_ rate: Double) -> Double {
        rate.isFinite ? min(max(rate, rateRange.lowerBound), rateRange.upperBound) : 1
    }

    /// e^x by squaring a Taylor series (the module avoids Foundation); accurate to ~1e-15 for x ≤ 0.
    static func exp(_ x: Double) -> Double {
        guard x > -700 else { return 0 }
        var k = 0
        var y = x
        while abs(y) > 0.5 { y /= 2; k += 1 }
        var term = 1.0, sum = 1.0
        for n in 1...20 { term *= y / Double(n); sum += term }
        for _ in 0..<k { sum *= sum }
        return sum
    }
}
