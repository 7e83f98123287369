/// A strict JSON parser (RFC 8259) for what clients send: bounded in size, nesting, string length and
/// member count, so that no message can make the server allocate without limit or recurse deeply.
/// Every failure is a ``StudioError`` (`too_large` or `malformed_json`) naming the byte offset.
public struct StudioJSONParser {
    public struct Limits: Sendable, Equatable {
        /// Largest document in bytes (a control message is ~100 bytes; 16 KiB leaves room for any hello).
        public var maximumBytes = 16 * 1024
        /// Deepest nesting of arrays and objects.
        public var maximumDepth = 16
        /// Most members of one object or items of one array.
        public var maximumMembers = 256
        public init() {}
    }

    private let bytes: [UInt8]
    private let limits: Limits
    private var index = 0

    public init(_ bytes: [UInt8], limits: Limits = Limits()) {
        self.bytes = bytes
        self.limits = limits
    }

    /// One value, surrounded by whitespace only.
    public mutating func parseDocument() throws(StudioError) -> StudioValue {
        guard bytes.count <= limits.maximumBytes else { throw .tooLarge(bytes.count, limit: limits.maximumBytes) }
        skipSpace()
        let value = try parseValue(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw fail("text after the value") }
        return value
    }

    private func fail(_ why: String) -> StudioError { .malformedJSON("\(why) at byte \(index)") }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(StudioError) -> StudioValue {
        guard index < bytes.count else { throw fail("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(StudioError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw fail("bad literal")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(StudioError) -> StudioValue {
        guard depth <= limits.maximumDepth else { throw fail("nesting deeper than \(limits.maximumDepth)") }
        index += 1
        var members: [String: StudioValue] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseString()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipSpace()
            let value = try parseValue(depth: depth)
            guard members.updateValue(value, forKey: key) == nil else { throw fail("duplicate member '\(key)'") }
            guard members.count <= limits.maximumMembers else { throw fail("more than \(limits.maximumMembers) members") }
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(StudioError) -> StudioValue {
        guard depth <= limits.maximumDepth else { throw fail("nesting deeper than \(limits.maximumDepth)") }
        index += 1
        var items: [StudioValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth))
            guard items.count <= limits.maximumMembers else { throw fail("more than \(limits.maximumMembers) items") }
            skipSpace()
            guard index < bytes.count else { throw fail("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(StudioError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            let s = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - s
        }
        let intStart = index
        let intDigits = digits()
        guard intDigits > 0 else { throw fail("expected a digit") }
        guard !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw fail("leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("number out of range") }
        return value
    }

    private mutating func hex4() throws(StudioError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private mutating func parseString() throws(StudioError) -> String {
        index += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() throws(StudioError) {
            guard !raw.isEmpty else { return }
            guard let s = String(validating: raw, as: UTF8.self) else { throw fail("invalid UTF-8") }
            scalars.append(contentsOf: s.unicodeScalars)
            raw.removeAll(keepingCapacity: true)
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                try flush()
                return String(scalars)
            }
            guard c >= 0x20 else { throw fail("control character in a string") }
            if c != UInt8(ascii: "\\") {
                raw.append(c)
                index += 1
                continue
            }
            try flush()
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("lone high surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("bad low surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw fail("lone low surrogate")
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("bad code point") }
                scalars.append(scalar)
            default: throw fail("bad escape")
            }
        }
    }
}
