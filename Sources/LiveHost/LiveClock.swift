/// A tempo the live host follows (MIDI clock arriving at the audio edge).
public protocol LiveClock: AnyObject, Sendable {
    /// The incoming clock's tempo in BPM, nil while no clock runs. Read from the host's loop.
    var bpm: Double? { get }
}
