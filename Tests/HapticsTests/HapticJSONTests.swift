import Haptics
import Horatio
import Testing

@Suite struct HapticJSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try HapticJSON.parse(#" {"a": [1, -2.5e2, 0.125, true, false, null], "b": "x\"\\\/\n\u00e9\ud83c\udfb5", "c": {}} "#)
        #expect(v["a"] == .array([.number(1), .number(-250), .number(0.125), .bool(true), .bool(false), .null]))
        #expect(v["b"] == .string("x\"\\/\né🎵"))
        #expect(v["c"] == .object([]))
    }

    @Test func refusesMalformedText() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "1e", "\"\\x\"", "\"\u{01}\"", "tru", "[1] 2", "\"\\ud800\"", "nan"] {
            #expect(throws: JSONReadError.self, "\(bad.debugDescription)") { try HapticJSON.parse(bad) }
        }
    }

    @Test func writesNumbersAndStringsThatReadBack() throws {
        let v = HapticJSON.object([("n", .array([.number(25), .number(0.1), .number(-1e-7), .number(.infinity)])), ("s", .string("tab\t\u{1}"))])
        let text = v.encoded()
        #expect(text == #"{"n":[25,0.1,-1e-07,0],"s":"tab\t\u0001"}"#)
        #expect(try HapticJSON.parse(text) == .object([("n", .array([.number(25), .number(0.1), .number(-1e-7), .number(0)])), ("s", .string("tab\t\u{1}"))]))
        #expect(try HapticJSON.parse(v.encoded(indent: 2)) == HapticJSON.parse(text))
    }
}
