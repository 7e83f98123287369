/// Why the studio refused a message or a control change: a stable `code` that pages and tests match
/// on, a human `message`, and `ref` (the offending message type or control path), sent to the client
/// as `{"v":1,"type":"error","code":…,"message":…,"ref":…}`.
public struct StudioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Stable, lower_snake_case: `too_large`, `malformed_json`, `bad_message`, `unknown_type`,
    /// `unknown_instrument`, `unknown_control`, `bad_value`, `out_of_range`, `unsupported`,
    /// `rate_limited`, `not_ready`.
    public var code: String
    public var message: String
    public var ref: String?

    public init(code: String, message: String, ref: String? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
    }

    public var description: String { ref.map { "\(code): \(message) (\($0))" } ?? "\(code): \(message)" }

    public static func tooLarge(_ size: Int, limit: Int) -> StudioError {
        StudioError(code: "too_large", message: "message of \(size) bytes is over the limit of \(limit)")
    }
    public static func malformedJSON(_ why: String) -> StudioError { StudioError(code: "malformed_json", message: why) }
    public static func badMessage(_ why: String, ref: String? = nil) -> StudioError {
        StudioError(code: "bad_message", message: why, ref: ref)
    }
    public static func unknownType(_ type: String) -> StudioError {
        StudioError(code: "unknown_type", message: "unknown message type", ref: type)
    }
    public static func unknownInstrument(_ id: String) -> StudioError {
        StudioError(code: "unknown_instrument", message: "no instrument with this id", ref: id)
    }
    public static func unknownControl(_ path: String) -> StudioError {
        StudioError(code: "unknown_control", message: "no control at this path", ref: path)
    }
    public static func badValue(_ path: String, expected: String) -> StudioError {
        StudioError(code: "bad_value", message: "expected \(expected)", ref: path)
    }
    public static func outOfRange(_ path: String, range: String) -> StudioError {
        StudioError(code: "out_of_range", message: "value outside \(range)", ref: path)
    }
    public static func unsupported(_ what: String, ref: String? = nil) -> StudioError {
        StudioError(code: "unsupported", message: what, ref: ref)
    }
    public static let rateLimited = StudioError(code: "rate_limited", message: "too many messages; some were dropped")
}
