/// One zone of the fret display: the note it plays and where it lies on screen.
public struct Fret: Sendable, Hashable {
    /// Zone index, 0 at the bottom of the screen.
    public var zone: Int
    /// The MIDI note the zone plays.
    public var note: Int
    /// Zone edges as screen y (0 top, 1 bottom): `top` < `bottom`.
    public var top: Double
    public var bottom: Double
    /// The label circle, nil for an unlabelled zone.
    public var label: FretLabel?

    /// The zone's centre as screen y.
    public var centre: Double { (top + bottom) / 2 }
}
