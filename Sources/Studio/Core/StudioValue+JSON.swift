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

    /// Parses JSON text (RFC 8259) with the limits of ``StudioJSONParser``.
    public init(json bytes: some Collection<UInt8>, limits: StudioJSONParser.Limits = .init()) throws(StudioError) {
        var parser = StudioJSONParser(Array(bytes), limits: limits)
        self = try parser.parseDocument()
    }

    public init(json text: String, limits: StudioJSONParser.Limits = .init()) throws(StudioError) {
        try self.init(json: Array(text.utf8), limits: limits)
    }
}
