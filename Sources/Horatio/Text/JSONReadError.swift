/// Why bytes are not an acceptable JSON document: what was wrong and the byte offset where the reader
/// stopped. Its description names both (`JSON byte 12: expected ',' or '}' but found 'x'`).
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The document has `size` bytes, over `limit`.
        case tooLarge(size: Int, limit: Int)
        case unexpectedEnd(expected: String)
        case unexpectedCharacter(UInt8, expected: String)
        /// A number that is not RFC 8259's grammar, or does not fit a finite `Double`; says which.
        case badNumber(String)
        /// A backslash escape that is not one of JSON's, or a `\u` escape that is not a character; says which.
        case badEscape(String)
        /// An unescaped control character (below U+0020) inside a string.
        case controlCharacter(UInt8)
        case notUTF8
        case tooDeep(limit: Int)
        case tooManyMembers(limit: Int)
        case duplicateKey(String)
        case trailingContent
    }

    public var offset: Int
    public var problem: Problem

    public init(offset: Int, _ problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .tooLarge(let size, let limit): what = "the document has \(size) bytes, over the limit of \(limit)"
        case .unexpectedEnd(let expected): what = "the text ends where \(expected) should be"
        case .unexpectedCharacter(let c, let expected): what = "expected \(expected) but found \(Self.name(c))"
        case .badNumber(let why): what = "malformed number (\(why))"
        case .badEscape(let why): what = "malformed string escape (\(why))"
        case .controlCharacter(let c): what = "unescaped control character \(Self.name(c)) in a string"
        case .notUTF8: what = "string is not UTF-8"
        case .tooDeep(let limit): what = "arrays and objects nested deeper than \(limit) levels"
        case .tooManyMembers(let limit): what = "more than \(limit) members in one array or object"
        case .duplicateKey(let key): what = "member \(JSONStringLiteral.quoted(key)) appears twice"
        case .trailingContent: what = "content after the JSON value"
        }
        return "JSON byte \(offset): \(what)"
    }

    private static func name(_ byte: UInt8) -> String {
        byte < 0x20 || byte > 0x7E ? "byte 0x\(String(byte, radix: 16, uppercase: true))" : "'\(Character(Unicode.Scalar(byte)))'"
    }
}
