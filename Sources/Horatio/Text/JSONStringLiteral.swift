/// A string as a JSON string literal (RFC 8259): quotes, backslash and control characters escaped,
/// everything else kept as it is (JSON text is UTF-8). One writer for every JSON the package emits
/// (recordings, AHAP patterns, preset JSON), so they all escape alike.
public enum JSONStringLiteral {
    /// `text` quoted and escaped, e.g. `a"b` → `"a\"b"`.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
