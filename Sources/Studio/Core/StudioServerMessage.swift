import InstrumentSettings

/// What the server sends as JSON text frames (protocol v1): every message carries `"v":1`.
public enum StudioServerMessage: Equatable, Sendable {
    case welcome(client: String, instrument: String?, instruments: [(id: String, name: String)], audio: StudioAudioStatus, resumed: Bool,
                 info: [String: StudioValue] = [:])
    case state(instrument: String, state: [String: StudioValue])
    case changed(instrument: String, changes: [String: StudioValue])
    case frame(instrument: String, frame: [String: StudioValue])
    case status(audio: StudioAudioStatus, sources: [StudioValue])
    case error(StudioError)
    case pong(t: Double, server: Double)
    /// Answer to `clock`: `t` echoed (page ms), `audio` the active instrument's audio clock in seconds
    /// (nil when it has none), `server` the server's monotonic clock in ms.
    case clock(t: Double, audio: Double?, server: Double)
    /// To one client that sends camera frames: the bridge's state and, per tracked frame, the face, its
    /// landmarks and the stream's counts and latencies (``StudioCameraDesk``; docs/studio-protocol.md).
    case camera([String: StudioValue])

    /// The protocol version this server speaks.
    public static let version = 1

    public static func == (a: StudioServerMessage, b: StudioServerMessage) -> Bool { a.json == b.json }

    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .state: "state"
        case .changed: "changed"
        case .frame: "frame"
        case .status: "status"
        case .error: "error"
        case .pong: "pong"
        case .clock: "clock"
        case .camera: "camera"
        }
    }

    /// The subscription a client needs to receive this message (nil: every client gets it).
    public var subscription: StudioSubscription? {
        switch self {
        case .state, .changed: .state
        case .frame: .frames
        case .status: .status
        case .welcome, .error, .pong, .clock, .camera: nil
        }
    }

    public var json: StudioValue {
        var o: [String: StudioValue] = ["v": .number(Double(Self.version)), "type": .string(type)]
        switch self {
        case .welcome(let client, let instrument, let instruments, let audio, let resumed, let info):
            o["client"] = .string(client)
            o["instrument"] = instrument.map { .string($0) } ?? .null
            o["instruments"] = .array(instruments.map { ["id": .string($0.id), "name": .string($0.name)] })
            o["audio"] = audio.json
            o["resumed"] = .bool(resumed)
            o["info"] = .object(info)
        case .state(let instrument, let state):
            o["instrument"] = .string(instrument)
            o["state"] = .object(state)
        case .changed(let instrument, let changes):
            o["instrument"] = .string(instrument)
            o["changes"] = .object(changes)
        case .frame(let instrument, let frame):
            o["instrument"] = .string(instrument)
            o["frame"] = .object(frame)
        case .status(let audio, let sources):
            o["audio"] = audio.json
            o["sources"] = .array(sources)
        case .error(let e):
            o["code"] = .string(e.code)
            o["message"] = .string(e.message)
            o["ref"] = e.ref.map { .string($0) } ?? .null
        case .pong(let t, let server):
            o["t"] = .number(t)
            o["server"] = .number(server)
        case .clock(let t, let audio, let server):
            o["t"] = .number(t)
            o["audio"] = audio.map { .number($0) } ?? .null
            o["server"] = .number(server)
        case .camera(let fields):
            for (k, v) in fields where k != "v" && k != "type" { o[k] = v }
        }
        return .object(o)
    }

    public var text: String { json.jsonText }
}
