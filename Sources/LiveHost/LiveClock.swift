/// A tempo the live host follows (MIDI clock arriving at the audio edge).
public protocol LiveClock: AnyObject, Sendable {
    /// The incoming clock's tempo in BPM, nil while no clock runs. Read from the host's loop.
    var bpm: Double? { get }
    /// The latest transport message (Start, Stop, Continue) with how many arrived so far, nil before the
    /// first. Read from the host's loop; a follower that has none keeps the default (nil).
    var transport: LiveClockTransport? { get }
    /// Clock messages (0xF8) received so far: while it grows, a clock runs. Default 0.
    var clockCount: Int { get }
}

extension LiveClock {
    public var transport: LiveClockTransport? { nil }
    public var clockCount: Int { 0 }
}
