/// The package's one JSON reader: strict RFC 8259 over UTF-8 bytes, without Foundation, bounded in size,
/// nesting and members so hostile input can neither exhaust the stack nor make it allocate without limit.
/// Every malformed byte is a typed `JSONReadError` naming what was wrong and where, never a trap.
/// What it builds is the caller's (`JSONReadable`).
public enum JSONReader {
    /// What a document may be. The defaults suit trusted-size files (AHAP patterns); the studio narrows
    /// them for messages from the network.
    public struct Limits: Sendable, Equatable {
        /// Largest document in bytes.
        public var maximumBytes: Int
        /// Deepest nesting of arrays and objects (the outermost one is level 1).
        public var maximumDepth: Int
        /// Most members of one object or elements of one array.
        public var maximumMembers: Int
        /// Whether a key repeated in one object is an error (otherwise both members are kept, in order).
        public var rejectsDuplicateKeys: Bool

        public init(maximumBytes: Int = .max, maximumDepth: Int = 64, maximumMembers: Int = .max, rejectsDuplicateKeys: Bool = false) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
            self.maximumMembers = maximumMembers
            self.rejectsDuplicateKeys = rejectsDuplicateKeys
        }
    }

    /// Reads one JSON value, surrounded by whitespace only, from UTF-8 `bytes`.
    public static func read<Value: JSONReadable>(
        _ bytes: [UInt8], as type: Value.Type = Value.self, limits: Limits = Limits()
    ) throws(JSONReadError) -> Value {
        guard bytes.count <= limits.maximumBytes else {
            throw JSONReadError(offset: limits.maximumBytes, .tooLarge(size: bytes.count, limit: limits.maximumBytes))
        }
        var cursor = Cursor(bytes: bytes, limits: limits)
        cursor.skipWhitespace()
        let value: Value = try cursor.value(depth: 0)
        cursor.skipWhitespace()
        guard cursor.index == bytes.count else { throw JSONReadError(offset: cursor.index, .trailingContent) }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        let limits: Limits
        var index = 0

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        func fail(_ problem: JSONReadError.Problem, at offset: Int? = nil) -> JSONReadError {
            JSONReadError(offset: offset ?? index, problem)
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        /// The byte at the cursor; the end of the text is an error naming what should have come.
        func peek(expecting expected: String) throws(JSONReadError) -> UInt8 {
            guard index < bytes.count else { throw fail(.unexpectedEnd(expected: expected)) }
            return bytes[index]
        }

        /// `depth`: containers enclosing this value.
        mutating func value<Value: JSONReadable>(depth: Int) throws(JSONReadError) -> Value {
            let c = try peek(expecting: "a value")
            switch c {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .jsonString(try string())
            case UInt8(ascii: "t"): try literal("true"); return .jsonBool(true)
            case UInt8(ascii: "f"): try literal("false"); return .jsonBool(false)
            case UInt8(ascii: "n"): try literal("null"); return .jsonNull()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .jsonNumber(try number())
            default: throw fail(.unexpectedCharacter(c, expected: "a value"))
            }
        }

        mutating func literal(_ word: StaticString) throws(JSONReadError) {
            let expected = "'\(word)'"
            var p = word.utf8Start
            for _ in 0..<word.utf8CodeUnitCount {
                let c = try peek(expecting: expected)
                guard c == p.pointee else { throw fail(.unexpectedCharacter(c, expected: expected)) }
                index += 1
                p += 1
            }
        }

        mutating func object<Value: JSONReadable>(depth: Int) throws(JSONReadError) -> Value {
            guard depth <= limits.maximumDepth else { throw fail(.tooDeep(limit: limits.maximumDepth)) }
            index += 1
            var members: [(key: String, value: Value)] = []
            var keys = Set<String>()
            skipWhitespace()
            if try peek(expecting: "a member name or '}'") == UInt8(ascii: "}") {
                index += 1
                return .jsonObject(members)
            }
            while true {
                skipWhitespace()
                let keyStart = index
                let quote = try peek(expecting: "a member name")
                guard quote == UInt8(ascii: "\"") else { throw fail(.unexpectedCharacter(quote, expected: "a member name")) }
                let key = try string()
                if limits.rejectsDuplicateKeys {
                    guard keys.insert(key).inserted else { throw fail(.duplicateKey(key), at: keyStart) }
                }
                skipWhitespace()
                let colon = try peek(expecting: "':'")
                guard colon == UInt8(ascii: ":") else { throw fail(.unexpectedCharacter(colon, expected: "':'")) }
                index += 1
                skipWhitespace()
                let member: Value = try value(depth: depth)
                members.append((key, member))
                guard members.count <= limits.maximumMembers else { throw fail(.tooManyMembers(limit: limits.maximumMembers), at: keyStart) }
                skipWhitespace()
                let next = try peek(expecting: "',' or '}'")
                index += 1
                if next == UInt8(ascii: "}") { return .jsonObject(members) }
                guard next == UInt8(ascii: ",") else { throw fail(.unexpectedCharacter(next, expected: "',' or '}'"), at: index - 1) }
            }
        }

        mutating func array<Value: JSONReadable>(depth: Int) throws(JSONReadError) -> Value {
            guard depth <= limits.maximumDepth else { throw fail(.tooDeep(limit: limits.maximumDepth)) }
            index += 1
            var elements: [Value] = []
            skipWhitespace()
            if try peek(expecting: "a value or ']'") == UInt8(ascii: "]") {
                index += 1
                return .jsonArray(elements)
            }
            while true {
                skipWhitespace()
                let start = index
                let element: Value = try value(depth: depth)
                elements.append(element)
                guard elements.count <= limits.maximumMembers else { throw fail(.tooManyMembers(limit: limits.maximumMembers), at: start) }
                skipWhitespace()
                let next = try peek(expecting: "',' or ']'")
                index += 1
                if next == UInt8(ascii: "]") { return .jsonArray(elements) }
                guard next == UInt8(ascii: ",") else { throw fail(.unexpectedCharacter(next, expected: "',' or ']'"), at: index - 1) }
            }
        }

        mutating func hex4() throws(JSONReadError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = try peek(expecting: "four hex digits after \\u")
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw fail(.badEscape("\\u needs four hex digits"))
                }
                v = v << 4 | UInt32(d)
                index += 1
            }
            return v
        }

        mutating func string() throws(JSONReadError) -> String {
            let start = index
            index += 1  // the opening quote
            var out: [UInt8] = []
            while true {
                let c = try peek(expecting: "the string's closing '\"'")
                if c == UInt8(ascii: "\"") { index += 1; break }
                guard c >= 0x20 else { throw fail(.controlCharacter(c)) }
                if c != UInt8(ascii: "\\") { out.append(c); index += 1; continue }
                index += 1
                let e = try peek(expecting: "an escape after '\\'")
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let escapeStart = index - 2
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail(.badEscape("high surrogate without a low one"), at: escapeStart)
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail(.badEscape("high surrogate without a low one"), at: escapeStart) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail(.badEscape("lone low surrogate"), at: escapeStart) }
                    out.append(contentsOf: String(Character(u)).utf8)
                default: throw fail(.badEscape("'\\\(Character(Unicode.Scalar(e)))' is not a JSON escape"), at: index - 2)
                }
            }
            guard let s = String(validating: out, as: UTF8.self) else { throw fail(.notUTF8, at: start) }
            return s
        }

        mutating func number() throws(JSONReadError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits(_ p: inout Cursor) -> Int {
                let s = p.index
                while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
                return p.index - s
            }
            let intStart = index
            let intDigits = digits(&self)
            guard intDigits > 0 else { throw fail(.badNumber("no digit after '-'")) }
            if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { throw fail(.badNumber("leading zero"), at: intStart) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { throw fail(.badNumber("no digit after '.'")) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { throw fail(.badNumber("no digit in the exponent")) }
            }
            guard let v = Double(String(decoding: bytes[start..<index], as: UTF8.self)), v.isFinite else {
                throw fail(.badNumber("out of Double's range"), at: start)
            }
            return v
        }
    }
}
