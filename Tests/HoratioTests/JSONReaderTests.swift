import Horatio
import Testing

/// The one JSON reader: what it builds, and that every refusal names the byte and what was wrong there.
@Suite struct JSONReaderTests {
    /// A plain tree for the tests (objects keep order and repeats).
    indirect enum Tree: JSONReadable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([Tree]), object([Member])
        struct Member: Equatable { var key: String; var value: Tree }
        static func jsonNull() -> Tree { .null }
        static func jsonBool(_ value: Bool) -> Tree { .bool(value) }
        static func jsonNumber(_ value: Double) -> Tree { .number(value) }
        static func jsonString(_ value: String) -> Tree { .string(value) }
        static func jsonArray(_ elements: [Tree]) -> Tree { .array(elements) }
        static func jsonObject(_ members: [(key: String, value: Tree)]) -> Tree { .object(members.map { Member(key: $0.key, value: $0.value) }) }
    }

    func read(_ text: String, _ limits: JSONReader.Limits = .init()) throws(JSONReadError) -> Tree {
        try JSONReader.read(Array(text.utf8), limits: limits)
    }

    @Test func readsEveryKindOfValue() throws {
        let tree = try read(#" {"a": [1, -2.5e3, 0.125, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83c\udfb5", "a": {}} "#)
        #expect(tree == .object([
            .init(key: "a", value: .array([.number(1), .number(-2500), .number(0.125), .bool(true), .bool(false), .null])),
            .init(key: "s", value: .string("x\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{1F3B5}")),
            .init(key: "a", value: .object([])),
        ]))
    }

    /// Each malformed document, the offset the reader stopped at, and the words its message must hold.
    @Test(arguments: [
        ("", 0, "ends where a value should be"),
        ("{", 1, "ends where a member name or '}' should be"),
        ("[1,]", 3, "expected a value but found ']'"),
        ("{\"a\" 1}", 5, "expected ':' but found '1'"),
        ("[1 2]", 3, "expected ',' or ']' but found '2'"),
        ("{\"a\":1 x", 7, "expected ',' or '}' but found 'x'"),
        ("01", 0, "malformed number (leading zero)"),
        ("1.", 2, "no digit after '.'"),
        ("-", 1, "no digit after '-'"),
        ("1e", 2, "no digit in the exponent"),
        ("1e999", 0, "out of Double's range"),
        ("tru", 3, "ends where 'true' should be"),
        ("nul1", 3, "expected 'null' but found '1'"),
        ("\"abc", 4, "ends where the string's closing '\"' should be"),
        ("\"\\x\"", 1, "'\\x' is not a JSON escape"),
        ("\"\\u12G4\"", 5, "\\u needs four hex digits"),
        ("\"\\ud800\"", 1, "high surrogate without a low one"),
        ("\"\\udc00\"", 1, "lone low surrogate"),
        ("\"a\u{01}b\"", 2, "unescaped control character byte 0x1"),
        ("1 2", 2, "content after the JSON value"),
        ("NaN", 0, "expected a value but found 'N'"),
    ])
    func refusalsNameTheByteAndTheProblem(text: String, offset: Int, words: String) {
        do {
            _ = try read(text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
            #expect(error.description.hasPrefix("JSON byte \(offset): "), "\(error)")
            #expect(error.description.contains(words), "\(text.debugDescription): \(error)")
        }
    }

    @Test func invalidUTF8InAStringIsRefused() {
        #expect(throws: JSONReadError(offset: 0, .notUTF8)) { _ = try JSONReader.read([0x22, 0xC3, 0x28, 0x22], as: Tree.self) }
    }

    @Test func limitsBoundSizeDepthMembersAndRepeats() throws {
        let size = JSONReader.Limits(maximumBytes: 8)
        #expect(throws: JSONReadError(offset: 8, .tooLarge(size: 9, limit: 8))) { _ = try read("[1,2,3,4]", size) }
        #expect(throws: Never.self) { _ = try read("[1,2,34]", size) }

        let depth = JSONReader.Limits(maximumDepth: 3)
        #expect(throws: Never.self) { _ = try read("[{\"a\":[1]}]", depth) }
        #expect(throws: JSONReadError(offset: 3, .tooDeep(limit: 3))) { _ = try read("[[[[]]]]", depth) }
        #expect(throws: Never.self) { _ = try read(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) }
        #expect(throws: JSONReadError.self) { _ = try read(String(repeating: "[", count: 65) + String(repeating: "]", count: 65)) }

        let members = JSONReader.Limits(maximumMembers: 2)
        #expect(throws: Never.self) { _ = try read("{\"a\":1,\"b\":[1,2]}", members) }
        #expect(throws: JSONReadError(offset: 5, .tooManyMembers(limit: 2))) { _ = try read("[1,2,3]", members) }

        let unique = JSONReader.Limits(rejectsDuplicateKeys: true)
        do {
            _ = try read("{\"a\":1,\"a\":2}", unique)
            Issue.record("accepted a repeated key")
        } catch {
            #expect(error == JSONReadError(offset: 7, .duplicateKey("a")))
            #expect(error.description == #"JSON byte 7: member "a" appears twice"#)
        }
    }
}
