import Horatio

extension HapticJSON {
    /// The value as JSON text. Numbers are written in Swift's shortest round-trip form (whole numbers
    /// without a fraction, `1` rather than `1.0`, so integer fields such as Android timings stay
    /// integers); non-finite numbers, which JSON cannot hold, are written as 0.
    ///
    /// - Parameter indent: spaces per level for pretty output; nil writes one line.
    public func encoded(indent: Int? = nil) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    /// One number as JSON.
    public static func numberText(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }

    /// One string as a JSON string literal.
    public static func stringText(_ s: String) -> String {
        JSONStringLiteral.quoted(s)
    }

    private func write(into out: inout String, indent: Int?, level: Int) {
        func newline(_ l: Int) {
            guard let indent else { return }
            out += "\n" + String(repeating: " ", count: indent * l)
        }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.numberText(n)
        case .string(let s): out += Self.stringText(s)
        case .array(let elements):
            // Arrays of plain values stay on one line even in pretty output (timings, amplitudes).
            let flat = elements.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += flat && indent != nil ? ", " : "," }
                if !flat { newline(level + 1) }
                e.write(into: &out, indent: indent, level: level + 1)
            }
            if !flat && !elements.isEmpty { newline(level) }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                newline(level + 1)
                out += Self.stringText(m.key) + (indent == nil ? ":" : ": ")
                m.value.write(into: &out, indent: indent, level: level + 1)
            }
            if !members.isEmpty { newline(level) }
            out += "}"
        }
    }
}
