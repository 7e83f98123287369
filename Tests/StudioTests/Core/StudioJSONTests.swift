import Horatio
import InstrumentSettings
import Testing

@Suite("Studio JSON")
struct StudioJSONTests {
    @Test("RFC 8259 values parse to what the text says")
    func parsesValues() throws {
        let v = try StudioValue(json: #" {"a": [1, -2.5e3, 0.125, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83c\udfb5"} "#)
        #expect(v == .object([
            "a": .array([.number(1), .number(-2500), .number(0.125), .bool(true), .bool(false), .null]),
            "s": .string("x\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{1F3B5}"),
        ]))
    }

    @Test("written text parses back to the same value, keys sorted, integers without a fraction")
    func roundTrip() throws {
        let v: StudioValue = ["b": [1, 2.5, "é\n"], "a": nil, "c": ["x": true]]
        #expect(v.jsonText == #"{"a":null,"b":[1,2.5,"é\n"],"c":{"x":true}}"#)
        #expect(try StudioValue(json: v.jsonText) == v)
        #expect(StudioValue.number(.infinity).jsonText == "null")
    }

    @Test("malformed documents are typed errors naming the byte", arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "tru", "\"abc", "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"",
        "{\"a\" 1}", "[1 2]", "1 2", "\"a\u{01}b\"", "{\"a\":1,\"a\":2}", "NaN", "1e999",
    ])
    func malformed(_ text: String) {
        #expect(throws: StudioError.self) { try StudioValue(json: text) }
        do { _ = try StudioValue(json: text) } catch { #expect(error.code == "malformed_json") }
    }

    @Test("invalid UTF-8 inside a string is refused")
    func invalidUTF8() {
        #expect(throws: StudioError.self) { try StudioValue(json: [0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test("limits: size, depth, members")
    func limits() throws {
        var limits = JSONReader.Limits.studioMessage
        limits.maximumBytes = 64
        do {
            _ = try StudioValue(json: "[" + String(repeating: "1,", count: 40) + "1]", limits: limits)
            Issue.record("accepted a document over the size limit")
        } catch { #expect(error.code == "too_large") }
        let deep16 = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        let deep17 = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(throws: Never.self) { try StudioValue(json: deep16) }
        #expect(throws: StudioError.self) { try StudioValue(json: deep17) }
        let many = "[" + (0..<257).map(String.init).joined(separator: ",") + "]"
        #expect(throws: StudioError.self) { try StudioValue(json: many) }
    }
}
