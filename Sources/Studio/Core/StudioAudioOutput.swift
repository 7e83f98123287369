/// The studio's audio driver as the session sees it, given at construction: it is told which engine
/// renders when a client selects an instrument, and hears the listening pages' reports (browser audio).
public protocol StudioAudioOutput: AnyObject, Sendable {
    /// The active instrument's index changed (nil: none). Called under the session's lock: keep it short (an atomic store).
    func select(_ index: Int?)
    /// A listening page's browser-audio report, its client id and the time (monotonic seconds); under the session's lock too.
    func report(_ report: StudioAudioReport, client: String, at time: Double)
    /// Input arrived for the instruments (a face or hand frame, controls, MIDI) at `time` (monotonic
    /// seconds): an output that rests while nobody is there renders again. Under the session's lock: an atomic store.
    func inputArrived(at time: Double)
}

extension StudioAudioOutput {
    public func report(_ report: StudioAudioReport, client: String, at time: Double) {}
    public func inputArrived(at time: Double) {}
}
