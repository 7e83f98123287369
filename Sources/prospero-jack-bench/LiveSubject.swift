/// One live path the bench times: a `prospero` command on the bench's server and the event that makes it sound.
/// Each event starts from silence; it is timed from its send to the first sample at or above `onsetLevel` at the
/// command's `out_left` (and, when `measuresMIDI`, to its note-on at `midi_out`).
struct LiveSubject {
    /// The row's name ("native bundle → hecate").
    var label: String
    /// The JACK client name given with --client-name.
    var client: String
    /// The command's arguments without --client-name, given its UDP input port and the probe's MIDI input.
    var arguments: (_ udpPort: Int, _ probeMIDI: String) -> [String]
    /// Datagrams sent a period before the stamped one (a Face Cap frame's burst before its last `/W`: a phone
    /// sends it over about a millisecond, and sent at once here it would queue the stamped datagram behind it).
    var prelude: [[UInt8]] = []
    /// The stamped datagram that starts the sound; nil: a note-on into the command's `midi_in`, timed from the
    /// frame it entered the graph at.
    var start: [UInt8]?
    /// What ends the sound; nil: it ends by itself (a Face Cap face is lost after Hecate's timeout).
    var end: [UInt8]?
    /// The probe's onset and silence levels (linear amplitude).
    var onsetLevel: Float = 1e-3
    var quietLevel: Float = 1e-4
    var measuresMIDI = false
    /// Runs once the command printed its latency, before the first event (the studio selects its instrument);
    /// what it returns lives until the run ends.
    var prepare: (ProsperoRun) throws -> AnyObject? = { _ in nil }
}
