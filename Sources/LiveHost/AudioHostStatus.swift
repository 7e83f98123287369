/// A snapshot of a live host's audio backend: what it is, how it runs, where its ports go, its
/// latency and its health. A value (Sendable, Codable), so the CLI prints it and the studio's
/// Home page shows it without touching the backend; taken by ``LiveAudioBackend/audioStatus``.
public struct AudioHostStatus: Sendable, Hashable, Codable {
    public var backend: AudioBackendKind
    /// The name the backend runs under (the JACK client name the server gave, "Prospero-01" …).
    public var clientName: String
    /// The server joined; nil for the default one.
    public var serverName: String?
    /// Hz.
    public var sampleRate: Int
    /// Frames per period (JACK's buffer size) or per rendered block.
    public var periodFrames: Int
    /// Whether the server runs its process threads with real-time scheduling.
    public var isRealtime: Bool
    /// The backend's own ports and their connections.
    public var ports: [AudioHostPort]
    /// Frames from the outputs to the hardware (minimum, maximum over the outputs); 0 when unconnected.
    public var playbackLatencyMinimum: Int
    public var playbackLatencyMaximum: Int
    /// Frames the instrument's output lags its input beyond the period (a limiter's look-ahead),
    /// as reported to the server.
    public var processingLatencyFrames: Int
    /// DSP load of the whole graph in percent of a period (jack_cpu_load); nil when not known.
    public var cpuLoad: Double?
    /// Xruns the server reported since this backend started.
    public var xruns: Int
    /// Periods (blocks) processed.
    public var periods: Int
    /// Frames processed.
    public var frames: Int
    /// Longest and mean process callback in nanoseconds (0 offline).
    public var longestCallbackNanoseconds: Int
    public var averageCallbackNanoseconds: Int
    /// MIDI messages that could not be sent, and MIDI input the server lost.
    public var midiOutputDropped: Int
    public var midiInputLost: Int
    /// True while the backend processes periods.
    public var isRunning: Bool
    /// Why the server went away, once it did.
    public var shutdownReason: String?
    /// The fixed delay after which live input (OSC, hands) is due at its sample, in frames; nil when
    /// the session has no live input clock. Jitter below it becomes latency instead of quantisation.
    public var inputDelayFrames: Int?

    public init(
        backend: AudioBackendKind, clientName: String, serverName: String? = nil, sampleRate: Int, periodFrames: Int,
        isRealtime: Bool = false, ports: [AudioHostPort] = [], playbackLatencyMinimum: Int = 0,
        playbackLatencyMaximum: Int = 0, processingLatencyFrames: Int = 0, cpuLoad: Double? = nil, xruns: Int = 0,
        periods: Int = 0, frames: Int = 0, longestCallbackNanoseconds: Int = 0, averageCallbackNanoseconds: Int = 0,
        midiOutputDropped: Int = 0, midiInputLost: Int = 0, isRunning: Bool = false, shutdownReason: String? = nil
    ) {
        self.backend = backend
        self.clientName = clientName
        self.serverName = serverName
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.isRealtime = isRealtime
        self.ports = ports
        self.playbackLatencyMinimum = playbackLatencyMinimum
        self.playbackLatencyMaximum = playbackLatencyMaximum
        self.processingLatencyFrames = processingLatencyFrames
        self.cpuLoad = cpuLoad
        self.xruns = xruns
        self.periods = periods
        self.frames = frames
        self.longestCallbackNanoseconds = longestCallbackNanoseconds
        self.averageCallbackNanoseconds = averageCallbackNanoseconds
        self.midiOutputDropped = midiOutputDropped
        self.midiInputLost = midiInputLost
        self.isRunning = isRunning
        self.shutdownReason = shutdownReason
    }

    /// The period in milliseconds.
    public var periodMilliseconds: Double { Self.milliseconds(frames: periodFrames, rate: sampleRate) }

    /// Frames from MIDI in to the hardware output beyond the period: playback latency plus processing.
    public var latencyFromInputFrames: Int { playbackLatencyMaximum + processingLatencyFrames }

    // MARK: Lines (the CLI prints these; the studio may show the fields instead)

    /// What the backend runs at, where its ports go and its latency, one line each (ports indented).
    /// - Parameter isReconnect: the backend came back after its server went away.
    public func setupLines(isReconnect: Bool = false) -> [String] {
        let rate = sampleRate
        var lines: [String]
        switch backend {
        case .jack:
            let server = serverName.map { "\"\($0)\"" } ?? "default"
            lines = ["\(isReconnect ? "Reconnected to" : "Connected to") JACK server \(server) as \"\(clientName)\": "
                + "\(rate) Hz, period \(periodFrames) frames (\(Self.millisecondsText(frames: periodFrames, rate: rate))), "
                + "realtime \(isRealtime ? "yes" : "no")"]
        case .offline:
            lines = ["Offline (\(clientName)): \(rate) Hz, blocks of \(periodFrames) frames "
                + "(\(Self.millisecondsText(frames: periodFrames, rate: rate))), no live audio device"]
        }
        lines += ports.map { "  \($0.line)" }
        let processing = processingLatencyFrames
        if processing > 0 {
            lines.append("  processing latency \(processing) frames (\(Self.millisecondsText(frames: processing, rate: rate))): "
                + "the limiter's look-ahead, reported to JACK; MIDI in to sound out takes one period plus this")
        }
        guard backend == .jack else { return lines }
        let low = playbackLatencyMinimum, high = playbackLatencyMaximum
        if high > 0 {
            lines.append("  playback latency \(low == high ? "\(high)" : "\(low)…\(high)") frames "
                + "(\(Self.millisecondsText(frames: high, rate: rate))) from these outputs to the hardware")
        } else {
            lines.append("  playback latency: one period (\(Self.millisecondsText(frames: periodFrames, rate: rate))); outputs not connected to hardware")
        }
        lines.append(latencyLine)
        return lines
    }

    /// "  latency: MIDI in → sound N frames (…); input → sound N frames (…); input → midi_out N frames (…)":
    /// MIDI on midi_in plays in the period it arrives in, at its frame, so one period later at the outputs;
    /// live input is due the fixed input delay after its arrival.
    public var latencyLine: String {
        let rate = sampleRate, processing = processingLatencyFrames, hardware = playbackLatencyMaximum
        let ms = { (frames: Int) in Self.millisecondsText(frames: frames, rate: rate) }
        let parts = (processing > 0 ? " + processing" : "") + (hardware > 0 ? " + playback" : "")
        let fromMIDI = periodFrames + processing + hardware
        var line = "  latency: MIDI in → sound \(fromMIDI) frames (\(ms(fromMIDI)): one period\(parts))"
        if let delay = inputDelayFrames {
            let fromInput = delay + processing + hardware
            line += "; input → sound \(fromInput) frames (\(ms(fromInput)): input delay \(delay)\(parts))"
                + "; input → midi_out \(delay) frames (\(ms(delay)))"
        }
        return line
    }

    /// "4 periods, 0 xruns, longest callback 12.3 µs, MIDI out dropped 0, MIDI in lost 0".
    public var countersLine: String {
        "\(periods) periods, \(xruns) xruns, longest callback \(Self.microsecondsText(longestCallbackNanoseconds)), "
            + "MIDI out dropped \(midiOutputDropped), MIDI in lost \(midiInputLost)"
    }

    /// "xrun: 3 so far (longest callback 812.4 µs)".
    public var xrunLine: String {
        "xrun: \(xruns) so far (longest callback \(Self.microsecondsText(longestCallbackNanoseconds)))"
    }

    /// "DSP load 3.2 %" or nil when unknown.
    public var loadLine: String? {
        cpuLoad.map { "DSP load \((($0 * 10).rounded()) / 10) %" }
    }

    public static func milliseconds(frames: Int, rate: Int) -> Double {
        Double(frames) * 1000 / Double(max(rate, 1))
    }

    /// "5.33 ms".
    public static func millisecondsText(frames: Int, rate: Int) -> String {
        "\((milliseconds(frames: frames, rate: rate) * 100).rounded() / 100) ms"
    }

    /// "12.3 µs".
    public static func microsecondsText(_ nanoseconds: Int) -> String {
        "\((Double(nanoseconds) / 100).rounded() / 10) µs"
    }
}
