/// A whole recording turned into haptics (haptics.md §5), from an `AudioHapticTracker`'s analysis.
///
/// - Continuous layer: the loudness envelope (RMS per 10 ms hop), normalised to the loudest hop with
///   `headroom` (default 0 dB), intensity = √(normalised amplitude) (Lofelt's mapping), reduced by
///   Ramer–Douglas–Peucker to at most `pointsPerSecond` breakpoints a second (16 by default, as haptify),
///   written as `HapticIntensityControl` curves (split into 16-point pieces) over `HapticContinuous` events
///   (I 1, S 0.5) that cover the sounding stretches, each at most 30 s. Sharpness rides on
///   `HapticSharpnessControl` curves (centroid sharpness − 0.5), reduced the same way. Hops quieter than
///   −50 dB under the loudest are silence.
/// - The envelope is ducked by 20 % for 30 ms either side of each transient (Lofelt), so the tap stands out.
/// - Transients: one `HapticTransient` per onset, intensity √strength, sharpness from the centroid.
///
/// Curves alter every event of a pattern, transients included, so the layers are kept as two patterns;
/// `merged` puts them in one file for players that take one (the transients then follow the curves).
public struct AudioHaptics: Sendable, Hashable {
    public var continuous: HapticPattern
    public var transients: HapticPattern

    /// Both layers in one pattern.
    public var merged: HapticPattern {
        var p = continuous
        p.events += transients.events
        p.events.sort { $0.time < $1.time }
        return p
    }

    public static let silenceDecibels = -50.0
    public static let duckFactor = 0.8
    public static let duckTime = 0.03

    /// - Parameters:
    ///   - tracker: a tracker that has been fed the whole recording.
    ///   - headroom: dB (0…12) the loudest hop stays below full intensity.
    ///   - pointsPerSecond: breakpoint budget of the curves (1…100).
    public init(_ tracker: AudioHapticTracker, headroom: Double = 0, pointsPerSecond: Double = 16) {
        let frames = tracker.frames
        let onsets = tracker.onsets
        transients = HapticPattern(events: onsets.map {
            .transient(at: $0.time, intensity: $0.strength.squareRoot(), sharpness: $0.sharpness)
        })
        let peak = frames.map(\.rms).max() ?? 0
        guard peak > 0 else { continuous = HapticPattern(); return }
        let gain = Self.power10(-min(max(headroom, 0), 12) / 20)
        let floor = peak * Self.power10(Self.silenceDecibels / 20)
        var intensity = frames.map { (min(1, $0.rms / peak) * gain).squareRoot() }
        for o in onsets {
            for (k, f) in frames.enumerated() where abs(f.time - o.time) <= Self.duckTime { intensity[k] *= Self.duckFactor }
        }
        let budget = min(max(pointsPerSecond, 1), 100)
        var events: [HapticEvent] = []
        var curves: [HapticParameterCurve] = []
        // Sounding stretches, cut at 30 s.
        var k = 0
        while k < frames.count {
            guard frames[k].rms > floor else { k += 1; continue }
            var end = k
            while end + 1 < frames.count, frames[end + 1].rms > floor,
                  frames[end + 1].time - frames[k].time < HapticEvent.maximumContinuousDuration - AudioHapticTracker.hopTime { end += 1 }
            let t0 = frames[k].time
            let duration = max(AudioHapticTracker.hopTime, frames[end].time - t0 + AudioHapticTracker.hopTime)
            events.append(.continuous(at: t0, duration: duration, intensity: 1, sharpness: 0.5))
            let times = frames[k...end].map { $0.time - t0 }
            let maxPoints = max(2, Int((duration * budget).rounded(.up)))
            let iPoints = Self.reduce(times: times, values: Array(intensity[k...end]), maximumPoints: maxPoints)
            curves.append(HapticParameterCurve(.hapticIntensityControl, time: t0, points: iPoints.map { .init(time: $0.0, value: $0.1) }))
            let sPoints = Self.reduce(times: times, values: frames[k...end].map { $0.sharpness - 0.5 }, maximumPoints: maxPoints)
            curves.append(HapticParameterCurve(.hapticSharpnessControl, time: t0, points: sPoints.map { .init(time: $0.0, value: $0.1) }))
            k = end + 1
        }
        continuous = HapticPattern(events: events, curves: curves)
    }

    /// Ramer–Douglas–Peucker reduction of a polyline to at most `maximumPoints` points: the tolerance
    /// starts at 0.01 and doubles until the line fits.
    static func reduce(times: [Double], values: [Double], maximumPoints: Int) -> [(Double, Double)] {
        guard times.count > 2 else { return Array(zip(times, values)) }
        var epsilon = 0.01
        while true {
            var keep = [Bool](repeating: false, count: times.count)
            keep[0] = true; keep[times.count - 1] = true
            var stack = [(0, times.count - 1)]
            while let (a, b) = stack.popLast() {
                guard b > a + 1 else { continue }
                var worst = -1.0, at = a
                for i in (a + 1)..<b {
                    let f = (times[i] - times[a]) / max(1e-12, times[b] - times[a])
                    let d = abs(values[i] - (values[a] + (values[b] - values[a]) * f))
                    if d > worst { worst = d; at = i }
                }
                if worst > epsilon { keep[at] = true; stack.append((a, at)); stack.append((at, b)) }
            }
            let kept = keep.enumerated().filter(\.element).map { (times[$0.offset], values[$0.offset]) }
            if kept.count <= maximumPoints || epsilon > 2 { return kept }
            epsilon *= 2
        }
    }

    /// 10^x for the module without Foundation.
    static func power10(_ x: Double) -> Double { HapticManager.exp(x * 2.302_585_092_994_046) }
}
