import ProsperoJACK
import Studio

/// The one place that maps JACK's figures to the studio's ``StudioAudioStatus`` (Home's audio panel).
/// When LiveHost gains its portable audio-status value, this is the file to change.
public enum StudioAudioStatusMapping {
    /// `jack` as queried at start (nil: no JACK, nothing renders), the client name the studio opens.
    public static func status(jack: JACKServerStatus?, clientName: String, note: String? = nil) -> StudioAudioStatus {
        guard let jack else { return StudioAudioStatus(backend: .none, note: note) }
        var s = StudioAudioStatus(backend: .jack, client: clientName, note: note)
        s.rate = Double(jack.sampleRate)
        s.period = jack.bufferSize
        s.latencyMs = jack.periodMilliseconds
        s.cpuLoad = jack.cpuLoad
        s.ports = ["\(clientName):out_left", "\(clientName):out_right", "\(clientName):midi_in", "\(clientName):midi_out"]
        return s
    }

    /// The running client's counters.
    public static func updating(_ status: StudioAudioStatus, xruns: Int) -> StudioAudioStatus {
        var s = status
        s.xruns = xruns
        return s
    }
}
