/// One AHAP `ParameterCurve`: a control that moves linearly between points.
///
/// Point times are seconds relative to the curve's `time` (Apple's header; Lofelt's generator wrote
/// absolute times, which doubled offsets). Points are kept sorted by time.
public struct HapticParameterCurve: Sendable, Hashable {
    /// Most control points Core Haptics is known to play in one curve (Lofelt chunks curves to 16;
    /// Apple does not document the limit). Longer curves are split by `split()`.
    public static let maximumPointCount = 16

    public struct Point: Sendable, Hashable {
        /// Seconds after the curve's start, ≥ 0.
        public var time: Double
        public var value: Double
        public init(time: Double, value: Double) {
            self.time = time
            self.value = value
        }
    }

    public var id: HapticDynamicParameterID
    /// Seconds from the start of the pattern when the curve begins, ≥ 0.
    public var time: Double
    public private(set) var points: [Point]

    /// - Precondition-free: values are clamped into `id.range`, times made ≥ 0 and sorted (stably).
    public init(_ id: HapticDynamicParameterID, time: Double, points: [Point]) {
        self.id = id
        self.time = HapticEvent.clampTime(time)
        self.points = points.enumerated()
            .map { Point(time: HapticEvent.clampTime($0.element.time), value: id.clamp($0.element.value)) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Seconds from the pattern's start to the last point.
    public var endTime: Double { time + (points.last?.time ?? 0) }

    /// The curve's value at pattern time `t`: linear between points, the first value before the first
    /// point and the last value after the last one.
    public func value(at t: Double) -> Double {
        guard let first = points.first else { return id.defaultValue }
        let local = t - time
        if local <= first.time { return first.value }
        for k in 1..<max(1, points.count) {
            let a = points[k - 1], b = points[k]
            if local <= b.time {
                let span = b.time - a.time
                return span > 0 ? a.value + (b.value - a.value) * (local - a.time) / span : b.value
            }
        }
        return points[points.count - 1].value
    }

    /// The curve as curves of at most `maximumPointCount` points that give the same value at every time:
    /// each piece starts on the previous piece's last point (so the line is continuous) and its point
    /// times are relative to its own start. 16 points stay one curve; 17 become 16 + 2.
    public func split() -> [HapticParameterCurve] {
        let n = Self.maximumPointCount
        guard points.count > n else { return [self] }
        var pieces: [HapticParameterCurve] = []
        var start = 0
        while start < points.count - 1 {
            let end = min(start + n, points.count)
            let origin = points[start].time
            let piece = points[start..<end].map { Point(time: $0.time - origin, value: $0.value) }
            pieces.append(HapticParameterCurve(id, time: time + origin, points: piece))
            start = end - 1
        }
        return pieces
    }
}
