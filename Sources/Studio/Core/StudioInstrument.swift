import Enobarbus
import InstrumentSettings

/// One instrument the studio can play (Hecate, hands, …). A class per instrument, made once when the
/// studio starts and owned by its ``StudioSession``. Every call comes from the session's control
/// context, one at a time (the session serialises them with its lock), never from the audio thread.
///
/// Controls are named by dotted paths `<id>.<control>` (`hecate.key`); the instrument validates
/// type and range and answers with the changes (which every client receives as a `changed` message)
/// or a typed ``StudioError`` (which the sender receives as an `error`).
public protocol StudioInstrument: AnyObject {
    /// Stable id: the URL path (`/hecate/`) and the protocol's instrument name.
    static var id: String { get }
    /// Name shown on Home ("Hecate").
    var displayName: String { get }
    /// One line for Home under the name (what it is and how it is played).
    var summary: String { get }
    /// The engine the audio driver renders while this instrument is active.
    var audio: any StudioAudioEngine { get }

    /// The whole UI state (sent on join and on select).
    func stateJSON() -> [String: StudioValue]
    /// Sets one control; returns the changed state members (keys as in ``stateJSON()``).
    func apply(set path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue]
    /// A momentary action (a chord-bar click, mute, learn); returns the changed state members.
    func apply(action path: String, value: StudioValue) throws(StudioError) -> [String: StudioValue]
    /// The same action with the id of the client that sent it (an instrument that holds something per
    /// client, as HiSynth's keyboard holds notes, tells them apart). Default: ``apply(action:value:)``.
    func apply(action path: String, value: StudioValue, client: String) throws(StudioError) -> [String: StudioValue]
    /// `client`'s socket was lost: end what it holds (its keyboard notes). Default: nothing.
    func clientLeft(_ client: String, at time: Double) -> [String: StudioValue]
    /// A finger on a pad; default: `unsupported`. `client` tells touches of different pages apart.
    func touch(_ touch: StudioTouch, client: String) throws(StudioError) -> [String: StudioValue]
    /// A finger on a pad that arrived at `time` (monotonic seconds, when the server read it), so that its
    /// sound can be due a fixed latency after its arrival. Default: `touch(_:client:)`.
    func touch(_ touch: StudioTouch, client: String, at time: Double) throws(StudioError) -> [String: StudioValue]
    /// HUD data for the `frame` message at up to 30 Hz (`now` in seconds, monotonic); nil when nothing changed.
    func frameJSON(now: Double) -> [String: StudioValue]?

    /// Tracking frames from the shared OSC inputs (face, hands), as a ``LiveInstrument`` receives them.
    func receive(_ frames: [TrackingFrame], at time: Double)
    /// Wekinator's `/wek/outputs` vector from the shared OSC input, as a ``LiveInstrument`` receives it
    /// (`WekinatorControlMapping`); default: ignored.
    func receiveControls(_ outputs: [Float], at time: Double)
    /// Time passes (lifecycle timeouts, arpeggiator clocks); called at the input loop's tick.
    func advance(to time: Double)
    /// False for an instrument whose ``advance(to:)`` does nothing (it keeps the default): the input loop need not
    /// tick for it while nobody plays, whoever listens. Default: true.
    var advancesWithTime: Bool { get }
    /// What the studio's own camera (`--camera`) tracks while this instrument is active: its hands for an
    /// instrument played by hands, else a face. Default: `.face`.
    var cameraModel: StudioCameraModel { get }
    /// The changes the instrument made on its own as time passed (in ``advance(to:)`` or
    /// ``frameJSON(now:)``: a game's tremolo pulse, its home button), oldest first, each to be sent as its
    /// own `changed` message; the instrument forgets them. Default: none.
    func takeChanges() -> [[String: StudioValue]]
    /// The instrument stops sounding: it was deselected or the studio stops. End every note.
    func silence(at time: Double)

    /// The knobs a MIDI controller may learn (`hecate.bpm`, `hisynth.lp.cutoff`): continuous controls
    /// only, with the ranges the page's controls cover. Default: none.
    static var learnableControls: [MIDILearnableControl] { get }
    /// The instrument's section of the settings file: what the player set, restored at the next start
    /// (``restoreSettings(_:)`` reads it back). Default: nil (the instrument keeps nothing).
    func savedSettings() -> StudioValue?
    /// Restores a section ``savedSettings()`` wrote (from a file: any member may be missing or wrong)
    /// through the instrument's own controls; one line per member refused, naming it. Default: nothing.
    func restoreSettings(_ section: StudioValue) -> [String]
}

extension StudioInstrument {
    public var id: String { Self.id }
    public var summary: String { "" }
    public func touch(_ touch: StudioTouch, client: String) throws(StudioError) -> [String: StudioValue] {
        throw .unsupported("\(Self.id) has no touch pad", ref: "touch")
    }
    public func touch(_ touch: StudioTouch, client: String, at time: Double) throws(StudioError) -> [String: StudioValue] {
        try self.touch(touch, client: client)
    }
    public func frameJSON(now: Double) -> [String: StudioValue]? { nil }
    public func apply(action path: String, value: StudioValue, client: String) throws(StudioError) -> [String: StudioValue] {
        try apply(action: path, value: value)
    }
    public func clientLeft(_ client: String, at time: Double) -> [String: StudioValue] { [:] }
    public func receive(_ frames: [TrackingFrame], at time: Double) {}
    public func receiveControls(_ outputs: [Float], at time: Double) {}
    public func advance(to time: Double) {}
    public var advancesWithTime: Bool { true }
    public var cameraModel: StudioCameraModel { .face }
    public func takeChanges() -> [[String: StudioValue]] { [] }
    public static var learnableControls: [MIDILearnableControl] { [] }
    public func savedSettings() -> StudioValue? { nil }
    public func restoreSettings(_ section: StudioValue) -> [String] { [] }
}
