import Horatio

extension StudioValue {
    /// Compact JSON text; object keys sorted so that equal values give equal text. Non-finite
    /// numbers (which JSON cannot carry) are written as `null`; integers without a fraction.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.numberText(n)
        case .string(let s): out += JSONStringLiteral.quoted(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                out += JSONStringLiteral.quoted(key)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    static func numberText(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    /// Parses JSON text (RFC 8259) with Horatio's `JSONReader` (a key repeated in one object is refused).
    /// Throws `too_large` over `limits.maximumBytes`, otherwise `malformed_json` naming the byte and
    /// what was wrong there.
    public init(json bytes: some Collection<UInt8>, limits: JSONReader.Limits = .studioMessage) throws(StudioError) {
        var limits = limits
        limits.rejectsDuplicateKeys = true
        do { self = try JSONReader.read(Array(bytes), limits: limits) } catch {
            if case .tooLarge(let size, let limit) = error.problem { throw .tooLarge(size, limit: limit) }
            throw .malformedJSON(error.description)
        }
    }

    public init(json text: String, limits: JSONReader.Limits = .studioMessage) throws(StudioError) {
        try self.init(json: Array(text.utf8), limits: limits)
    }
}
