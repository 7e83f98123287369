/// A haptic pattern as plain values: the AHAP file's content (Apple's CHHapticPattern as data).
///
/// Events, dynamic parameters and parameter curves are kept apart (an AHAP file interleaves them in
/// one `Pattern` array; `ahapJSON()` writes events, then parameters, then curves). Curves hold at
/// most 16 points: `init` and the reader split longer ones (`HapticParameterCurve.split()`).
///
/// Controls over time (`intensityControl(at:)`, `sharpnessControl(at:)`): at time t the control of
/// the `Parameter` or `ParameterCurve` that began most recently at or before t applies (a curve holds
/// its last value after its last point); before any, the control's default (×1, +0).
public struct HapticPattern: Sendable, Hashable {
    public static let currentVersion = 1.0

    /// `Version` (AHAP files say 1.0).
    public var version: Double
    /// `Metadata` string values (Project, Created, Description…); other metadata is not kept.
    public var metadata: [(key: String, value: String)]
    public var events: [HapticEvent]
    public var parameters: [HapticDynamicParameter]
    public private(set) var curves: [HapticParameterCurve]

    public init(events: [HapticEvent] = [], parameters: [HapticDynamicParameter] = [], curves: [HapticParameterCurve] = [],
                metadata: [(key: String, value: String)] = [], version: Double = Self.currentVersion) {
        self.version = version.isFinite ? version : Self.currentVersion
        self.metadata = metadata
        self.events = events
        self.parameters = parameters
        self.curves = curves.flatMap { $0.split() }
    }

    /// Adds a curve (split into pieces of at most 16 points).
    public mutating func add(_ curve: HapticParameterCurve) { curves.append(contentsOf: curve.split()) }

    /// The pattern's length in seconds, Core Haptics' rule: the latest of each event's start plus its
    /// duration, each parameter's time and each curve's last point.
    public var duration: Double {
        var end = 0.0
        for e in events { end = max(end, e.time + e.effectiveDuration) }
        for p in parameters { end = max(end, p.time) }
        for c in curves { end = max(end, c.endTime) }
        return end
    }

    /// The value of dynamic parameter `id` at pattern time `t` (see the type's comment).
    public func control(_ id: HapticDynamicParameterID, at t: Double) -> Double {
        var startedAt = -Double.infinity
        var value = id.defaultValue
        for p in parameters where p.id == id && p.time <= t && p.time >= startedAt {
            startedAt = p.time
            value = p.value
        }
        for c in curves where c.id == id && c.time <= t && c.time >= startedAt {
            startedAt = c.time
            value = c.value(at: t)
        }
        return value
    }

    /// The control `id` at each of `times` (ascending), in one sweep: O((parameters + curves) · log + times).
    /// Equal to `control(id, at:)` at each time.
    public func control(_ id: HapticDynamicParameterID, at times: [Double]) -> [Double] {
        // Entries by start; at equal starts a curve follows a parameter (as in `control(_:at:)`).
        var starts: [(time: Double, order: Int, curve: Int)] = []
        for (i, p) in parameters.enumerated() where p.id == id { starts.append((p.time, i, -1 - i)) }
        for (i, c) in curves.enumerated() where c.id == id { starts.append((c.time, parameters.count + i, i)) }
        starts.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        var out = [Double](repeating: id.defaultValue, count: times.count)
        var next = 0
        var current: Int?
        for (k, t) in times.enumerated() {
            while next < starts.count, starts[next].time <= t { current = next; next += 1 }
            guard let c = current else { continue }
            let entry = starts[c]
            out[k] = entry.curve >= 0 ? curves[entry.curve].value(at: t) : parameters[-1 - entry.curve].value
        }
        return out
    }

    /// The effective intensity (0…1) of event `e` at time `t`: its `HapticIntensity` × the intensity control.
    public func intensity(of e: HapticEvent, at t: Double) -> Double {
        min(1, max(0, e.intensity * control(.hapticIntensityControl, at: t)))
    }

    /// The effective sharpness (0…1) of event `e` at time `t`: its `HapticSharpness` + the sharpness control.
    public func sharpness(of e: HapticEvent, at t: Double) -> Double {
        min(1, max(0, e.sharpness + control(.hapticSharpnessControl, at: t)))
    }

    public static func == (a: HapticPattern, b: HapticPattern) -> Bool {
        a.version == b.version && a.events == b.events && a.parameters == b.parameters && a.curves == b.curves
            && a.metadata.count == b.metadata.count && zip(a.metadata, b.metadata).allSatisfy { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(version); hasher.combine(events); hasher.combine(parameters); hasher.combine(curves)
    }
}
