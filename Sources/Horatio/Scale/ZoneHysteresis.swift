/// Divides a 0…1 position into equal zones and changes zone only past a margin (a Schmitt trigger).
///
/// A hand hovering on a fret boundary jitters by a few thousandths; without hysteresis it would
/// retrigger notes on every frame. The zone math is Prospero's `positionToNote`:
/// `index = min(Int(position × zoneCount), zoneCount − 1)`, so zone displays and the router agree.
/// A new zone is entered only when the position is more than `margin × zoneWidth` past the
/// current zone's boundary.
///
///     var zones = ZoneHysteresis(zoneCount: 8, margin: 0.25)
///     zones.update(0.124)   // 0
///     zones.update(0.126)   // still 0: inside the margin past the boundary at 0.125
///     zones.update(0.160)   // 1
public struct ZoneHysteresis: Sendable, Hashable {
    /// Number of zones, ≥ 1.
    public let zoneCount: Int
    /// How far past a boundary the position must go, as a fraction of one zone's width, 0…0.5.
    public let margin: Double
    /// The zone last returned, nil before the first update or after `reset()`.
    public private(set) var current: Int?

    public init(zoneCount: Int, margin: Double = 0.25) {
        precondition(zoneCount >= 1, "at least one zone")
        precondition((0...0.5).contains(margin), "margin is a fraction 0…0.5 of a zone")
        self.zoneCount = zoneCount
        self.margin = margin
    }

    /// The zone a position falls in with no hysteresis. Positions outside 0…1 are clamped; NaN is zone 0.
    public static func zone(for position: Double, zoneCount: Int) -> Int {
        guard position.isFinite else { return position == .infinity ? zoneCount - 1 : 0 }
        let p = min(max(position, 0), 1)
        return min(Int(p * Double(zoneCount)), zoneCount - 1)
    }

    /// The boundaries between zones as positions: zoneCount + 1 values from 0 to 1.
    public static func boundaries(zoneCount: Int) -> [Double] {
        (0...zoneCount).map { Double($0) / Double(zoneCount) }
    }

    /// Feeds a new position and returns the zone, which changes only past the margin.
    /// A NaN position keeps the current zone.
    public mutating func update(_ position: Double) -> Int {
        guard let zone = current else {
            let z = Self.zone(for: position.isNaN ? 0 : position, zoneCount: zoneCount)
            current = z
            return z
        }
        guard !position.isNaN else { return zone }
        let width = 1 / Double(zoneCount)
        let lower = Double(zone) * width - margin * width
        let upper = Double(zone + 1) * width + margin * width
        if position < lower || position >= upper {
            current = Self.zone(for: position, zoneCount: zoneCount)
        }
        return current!
    }

    /// Forgets the current zone; the next update takes the raw zone.
    public mutating func reset() { current = nil }
}
