/// A signal over time for a lanes panel: values 0…1 at times in seconds (e.g. a face blendshape).
public struct PlotLane: Sendable, Hashable {
    public var name: String
    public var points: [PlotSample]
    public init(name: String, points: [PlotSample]) { self.name = name; self.points = points }
}

/// One value of a lane: `time` in seconds, `value` 0…1 (clamped when drawn).
public struct PlotSample: Sendable, Hashable {
    public var time: Double, value: Double
    public init(time: Double, value: Double) { self.time = time; self.value = value }
}

/// A labelled stretch of time (a chord on the chord timeline, a section).
public struct PlotSegment: Sendable, Hashable {
    public var start: Double, end: Double, label: String
    public init(start: Double, end: Double, label: String) { self.start = start; self.end = end; self.label = label }
}

/// A point event (a touch, a haptic event): `time` in seconds, optional `duration`, `row` 0…1 from the
/// panel's bottom (e.g. a touch's y or an event's intensity), and a short label.
public struct PlotMarker: Sendable, Hashable {
    public var time: Double, duration: Double, row: Double, label: String
    public init(time: Double, duration: Double = 0, row: Double = 0.5, label: String = "") {
        self.time = time; self.duration = duration; self.row = row; self.label = label
    }
}
