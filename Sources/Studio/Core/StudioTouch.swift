/// One finger on a pad (the `touch` message): slot `id` 0…3, phase, position 0…1 (x left → right,
/// y top → bottom) and pressure 0…1, which is a placeholder when `measured` is false (the page found no
/// pressure, contact size or speed: the instrument plays its own default, the hands' velocity dial).
/// Which client it came from is the session's business: a client's touches end when its socket is lost.
public struct StudioTouch: Equatable, Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case down, move, up, cancel
    }

    /// Touch slots the protocol carries (the seed's touch0–touch3); further fingers are ignored by pages.
    public static let slots = 0..<4

    public var id: Int
    public var phase: Phase
    public var x: Double
    public var y: Double
    public var pressure: Double
    /// False when the device measured no force for this event (`pressure` is then a placeholder).
    public var measured: Bool

    public init(id: Int, phase: Phase, x: Double, y: Double, pressure: Double = 1, measured: Bool = true) {
        self.id = id
        self.phase = phase
        self.x = x
        self.y = y
        self.pressure = pressure
        self.measured = measured
    }

    /// True for `up` and `cancel`: the note of this slot ends.
    public var ends: Bool { phase == .up || phase == .cancel }
}
