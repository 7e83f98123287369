import InstrumentSettings

/// What Home shows about the sound: which backend plays it and, for JACK, the client, its ports, the
/// server's rate and period, the output latency, xruns and DSP load. One value type the studio sends
/// in every `status` message; the server's driver fills it (the one place that maps JACK's figures).
public struct StudioAudioStatus: Equatable, Sendable {
    public enum Backend: String, Sendable {
        /// Through a JACK (or PipeWire-JACK) server.
        case jack
        /// Streamed to the page (PCM over the WebSocket into an AudioWorklet).
        case browser
        /// Nothing rendered (`--audio none`): controls and state work, meters rest at silence.
        case none
    }

    public var backend: Backend
    /// JACK client name ("Prospero"), nil when not JACK.
    public var client: String?
    /// Output ports as JACK names them ("Prospero:out_left"), and what they connect to.
    public var ports: [String] = []
    /// Sample rate in Hz (0 when nothing renders).
    public var rate: Double = 0
    /// Frames per period (0 when nothing renders).
    public var period: Int = 0
    /// Output latency in milliseconds (period plus the server's playback latency and the engine's look-ahead).
    public var latencyMs: Double = 0
    /// Xruns since the studio started.
    public var xruns: Int = 0
    /// DSP load in percent as JACK reports it (0…100).
    public var cpuLoad: Double = 0
    /// Browser mode: pages listening now; nil otherwise.
    public var listeners: Int?
    /// Browser mode: the steered render rate's deviation from nominal, parts per million (±500); nil otherwise.
    public var ratePPM: Double?
    /// JACK: LiveHost's latency line ("latency: MIDI in → sound …"), nil otherwise.
    public var latencyLine: String?
    /// JACK: where the outputs play, as detected from the server's ports ("bluetooth sink (bluez_output.…)",
    /// "no bluetooth (system:playback_1): wired"), followed as the connections change; nil otherwise.
    public var route: String?
    /// A line saying what is wrong or waiting ("no JACK server: --audio none"), nil when all is well.
    public var note: String?

    public init(backend: Backend, client: String? = nil, note: String? = nil) {
        self.backend = backend
        self.client = client
        self.note = note
    }

    public var json: StudioValue {
        var o: [String: StudioValue] = [
            "backend": .string(backend.rawValue), "ports": .array(ports.map { .string($0) }), "rate": .number(rate),
            "period": .number(Double(period)), "latencyMs": .number((latencyMs * 100).rounded() / 100),
            "xruns": .number(Double(xruns)), "cpuLoad": .number((cpuLoad * 100).rounded() / 100),
        ]
        o["client"] = client.map { .string($0) } ?? .null
        o["note"] = note.map { .string($0) } ?? .null
        if let listeners { o["listeners"] = .number(Double(listeners)) }
        if let ratePPM { o["ratePPM"] = .number((ratePPM * 10).rounded() / 10) }
        if let latencyLine { o["latencyLine"] = .string(latencyLine) }
        if let route { o["route"] = .string(route) }
        return .object(o)
    }
}
