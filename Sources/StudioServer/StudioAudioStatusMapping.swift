import Foundation
import LiveHost
import ProsperoJACK
import Studio

/// The one place that maps the audio backend's figures to the studio's ``StudioAudioStatus`` (Home's
/// audio panel): JACK's server as queried at start, then LiveHost's live ``AudioHostStatus`` snapshot
/// (xruns, DSP load, ports and their connections, latency) at the status rate.
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

    /// The running backend's snapshot (`LiveSession.audioStatus`): its rate and period, the latency from
    /// MIDI in to the hardware (period + processing + playback), xruns, DSP load, and the ports with what
    /// they connect to. Before the backend runs (rate 0) the start-up `fallback` stays.
    public static func status(host: AudioHostStatus, fallback: StudioAudioStatus) -> StudioAudioStatus {
        guard host.sampleRate > 0 else { return fallback }
        var s = StudioAudioStatus(backend: .jack, client: host.clientName)
        s.rate = Double(host.sampleRate)
        s.period = host.periodFrames
        s.latencyMs = AudioHostStatus.milliseconds(frames: host.periodFrames + host.latencyFromInputFrames, rate: host.sampleRate)
        s.xruns = host.xruns
        s.cpuLoad = host.cpuLoad ?? fallback.cpuLoad
        s.ports = host.ports.isEmpty ? fallback.ports : host.ports.map { $0.line.trimmingCharacters(in: .whitespaces) }
        s.latencyLine = host.latencyLine.trimmingCharacters(in: .whitespaces)
        if !host.isRunning {
            s.note = host.shutdownReason.map { "JACK server gone: \($0)" } ?? "JACK: not running"
        }
        return s
    }
}
