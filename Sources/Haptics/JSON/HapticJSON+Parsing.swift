extension HapticJSON {
    /// Parses one JSON value (RFC 8259) from UTF-8 bytes; whitespace may surround it.
    public static func parse(_ bytes: [UInt8]) throws(HapticJSONError) -> HapticJSON {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw HapticJSONError(offset: parser.index, .trailingContent) }
        return value
    }

    /// Parses one JSON value from text.
    public static func parse(_ text: String) throws(HapticJSONError) -> HapticJSON { try parse(Array(text.utf8)) }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        func peek() throws(HapticJSONError) -> UInt8 {
            guard index < bytes.count else { throw HapticJSONError(offset: index, .unexpectedEnd) }
            return bytes[index]
        }

        mutating func expect(_ literal: String, _ value: HapticJSON) throws(HapticJSONError) -> HapticJSON {
            for b in literal.utf8 {
                guard index < bytes.count else { throw HapticJSONError(offset: index, .unexpectedEnd) }
                guard bytes[index] == b else { throw HapticJSONError(offset: index, .unexpectedCharacter(bytes[index])) }
                index += 1
            }
            return value
        }

        mutating func value(depth: Int) throws(HapticJSONError) -> HapticJSON {
            guard depth < HapticJSON.maximumDepth else { throw HapticJSONError(offset: index, .tooDeep) }
            let c = try peek()
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw HapticJSONError(offset: index, .unexpectedCharacter(c))
            }
        }

        mutating func object(depth: Int) throws(HapticJSONError) -> HapticJSON {
            index += 1
            var members: [(key: String, value: HapticJSON)] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                let c = try peek()
                guard c == UInt8(ascii: "\"") else { throw HapticJSONError(offset: index, .unexpectedCharacter(c)) }
                let key = try string()
                skipWhitespace()
                let colon = try peek()
                guard colon == UInt8(ascii: ":") else { throw HapticJSONError(offset: index, .unexpectedCharacter(colon)) }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                let next = try peek()
                index += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else { throw HapticJSONError(offset: index - 1, .unexpectedCharacter(next)) }
            }
        }

        mutating func array(depth: Int) throws(HapticJSONError) -> HapticJSON {
            index += 1
            var elements: [HapticJSON] = []
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                let next = try peek()
                index += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw HapticJSONError(offset: index - 1, .unexpectedCharacter(next)) }
            }
        }

        mutating func hex4() throws(HapticJSONError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw HapticJSONError(offset: index, .unexpectedEnd) }
                let c = bytes[index]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw HapticJSONError(offset: index, .badEscape)
                }
                v = v << 4 | UInt32(d)
                index += 1
            }
            return v
        }

        mutating func string() throws(HapticJSONError) -> String {
            index += 1
            var out: [UInt8] = []
            while true {
                guard index < bytes.count else { throw HapticJSONError(offset: index, .unexpectedEnd) }
                let c = bytes[index]
                if c == UInt8(ascii: "\"") { index += 1; break }
                if c < 0x20 { throw HapticJSONError(offset: index, .unexpectedCharacter(c)) }
                if c != UInt8(ascii: "\\") { out.append(c); index += 1; continue }
                index += 1
                guard index < bytes.count else { throw HapticJSONError(offset: index, .unexpectedEnd) }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw HapticJSONError(offset: index, .badEscape)
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw HapticJSONError(offset: index, .badEscape) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw HapticJSONError(offset: index, .badEscape) }
                    out.append(contentsOf: String(Character(u)).utf8)
                default: throw HapticJSONError(offset: index - 1, .badEscape)
                }
            }
            guard let s = String(validating: out, as: UTF8.self) else { throw HapticJSONError(offset: index, .notUTF8) }
            return s
        }

        mutating func number() throws(HapticJSONError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ p: inout Parser) -> Int {
                let s = p.index
                while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
                return p.index - s
            }
            let intStart = index
            let intDigits = digits(&self)
            guard intDigits > 0 else { throw HapticJSONError(offset: index, .badNumber) }
            if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw HapticJSONError(offset: intStart, .badNumber) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw HapticJSONError(offset: index, .badNumber) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw HapticJSONError(offset: index, .badNumber) }
            }
            guard let text = String(validating: bytes[start..<index], as: UTF8.self), let v = Double(text), v.isFinite else {
                throw HapticJSONError(offset: start, .badNumber)
            }
            return v
        }
    }
}
