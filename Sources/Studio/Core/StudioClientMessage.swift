import Horatio
import InstrumentSettings

/// What a page sends over `/ws` as a JSON text frame (protocol v1, docs/studio-protocol.md).
public enum StudioClientMessage: Equatable, Sendable {
    /// First message of a connection: `client` is the id the page got in an earlier `welcome` (to resume
    /// within the retention time), nil for a new client; `subscribe` names the streams it wants.
    case hello(client: String?, subscribe: Set<StudioSubscription>)
    case select(instrument: String)
    case set(path: String, value: StudioValue)
    case action(path: String, value: StudioValue)
    case touch(StudioTouch)
    case ping(t: Double)
    /// Clock sync: `t` is the page's `performance.now()` in ms (0…``maximumClockMilliseconds``); answered
    /// by the server's `clock` with the active instrument's audio time.
    case clock(t: Double)
    /// A listening page's browser-audio player (buffer fill, latency, dropouts); see ``StudioAudioReport``.
    case audio(StudioAudioReport)

    /// The message type as the protocol names it (`ref` of errors).
    public var type: String {
        switch self {
        case .hello: "hello"
        case .select: "select"
        case .set: "set"
        case .action: "action"
        case .touch: "touch"
        case .ping: "ping"
        case .clock: "clock"
        case .audio: "audio"
        }
    }

    /// Longest control path accepted ("hecate.tremoloDepth"), and its characters: letters, digits, `.`, `_`, `-`.
    public static let maximumPathLength = 64
    /// Largest `t` a `clock` message may carry, ms (about 31 years of `performance.now()`).
    public static let maximumClockMilliseconds = 1e12
    /// Longest client id accepted.
    public static let maximumClientIDLength = 64

    /// Parses one text frame. Throws `too_large`, `malformed_json`, `bad_message` or `unknown_type`.
    public static func parse(_ bytes: some Collection<UInt8>, limits: JSONReader.Limits = .studioMessage) throws(StudioError) -> StudioClientMessage {
        let value = try StudioValue(json: bytes, limits: limits)
        return try parse(value)
    }

    public static func parse(_ value: StudioValue) throws(StudioError) -> StudioClientMessage {
        guard let object = value.object else { throw .badMessage("a message is a JSON object") }
        guard let type = object["type"]?.string else { throw .badMessage("a message needs a string \"type\"") }
        switch type {
        case "hello":
            var client: String?
            switch object["client"] {
            case nil, .null?: client = nil
            case .string(let id)?:
                guard !id.isEmpty, id.utf8.count <= maximumClientIDLength,
                      id.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
                else { throw .badMessage("bad client id", ref: "hello") }
                client = id
            default: throw .badMessage("\"client\" must be a string or null", ref: "hello")
            }
            var subscriptions = Set<StudioSubscription>()
            if let list = object["subscribe"] {
                guard let items = list.array else { throw .badMessage("\"subscribe\" must be an array", ref: "hello") }
                for item in items {
                    // Unknown stream names are ignored, so that newer pages work with this server.
                    if let name = item.string, let s = StudioSubscription(rawValue: name) { subscriptions.insert(s) }
                }
            } else {
                subscriptions = Set(StudioSubscription.allCases)
            }
            return .hello(client: client, subscribe: subscriptions)
        case "select":
            guard let id = object["instrument"]?.string, isName(id) else {
                throw .badMessage("\"instrument\" must be an instrument id", ref: "select")
            }
            return .select(instrument: id)
        case "set", "action":
            guard let path = object["path"]?.string, isPath(path) else {
                throw .badMessage("\"path\" must be <instrument>.<control>", ref: type)
            }
            guard let value = object["value"] else { throw .badMessage("missing \"value\"", ref: path) }
            if case .object = value { throw .badMessage("\"value\" must be a number, string, bool, array or null", ref: path) }
            return type == "set" ? .set(path: path, value: value) : .action(path: path, value: value)
        case "touch":
            // Int(exactly:): a whole number too large for Int (1e300) is refused, never converted (it trapped).
            guard let number = object["id"]?.number, let id = Int(exactly: number), StudioTouch.slots.contains(id) else {
                throw .badMessage("\"id\" must be a touch slot 0…3", ref: "touch")
            }
            guard let phaseName = object["phase"]?.string, let phase = StudioTouch.Phase(rawValue: phaseName) else {
                throw .badMessage("\"phase\" must be down, move, up or cancel", ref: "touch")
            }
            func unit(_ key: String, default fallback: Double?) throws(StudioError) -> Double {
                guard let v = object[key] else {
                    if let fallback { return fallback }
                    throw .badMessage("missing \"\(key)\"", ref: "touch")
                }
                guard let n = v.number, (0...1).contains(n) else { throw .badMessage("\"\(key)\" must be 0…1", ref: "touch") }
                return n
            }
            let ending = phase == .up || phase == .cancel
            var measured = true
            if let m = object["measured"] {
                guard let flag = m.bool else { throw .badMessage("\"measured\" must be true or false", ref: "touch") }
                measured = flag
            }
            return .touch(StudioTouch(
                id: id, phase: phase, x: try unit("x", default: ending ? 0 : nil), y: try unit("y", default: ending ? 0 : nil),
                pressure: try unit("pressure", default: 1), measured: measured))
        case "ping":
            guard let t = object["t"]?.number else { throw .badMessage("\"t\" must be a number", ref: "ping") }
            return .ping(t: t)
        case "clock":
            guard let t = object["t"]?.number else { throw .badMessage("\"t\" must be a number (ms)", ref: "clock") }
            guard t.isFinite, t >= 0, t <= maximumClockMilliseconds else {
                throw .badMessage("\"t\" must be 0…\(Int(maximumClockMilliseconds)) ms", ref: "clock")
            }
            return .clock(t: t)
        case "audio":
            return .audio(try StudioAudioReport.parse(object))
        default:
            throw .unknownType(String(type.prefix(maximumPathLength)))
        }
    }

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= maximumPathLength
            && s.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }
    }

    /// `<instrument>.<control>[.<more>]`: names separated by dots, no empty part.
    static func isPath(_ s: String) -> Bool {
        guard s.utf8.count <= maximumPathLength else { return false }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { isName(String($0)) }
    }
}
