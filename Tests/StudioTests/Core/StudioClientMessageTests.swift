import InstrumentSettings
import Studio
import Testing

@Suite("Studio client messages")
struct StudioClientMessageTests {
    func parse(_ text: String) throws(StudioError) -> StudioClientMessage { try StudioClientMessage.parse(Array(text.utf8)) }

    func code(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return error.code }
    }

    @Test("every v1 client message parses")
    func parsesEveryType() throws {
        #expect(try parse(#"{"type":"hello","client":null,"subscribe":["state","meters","later-stream"]}"#)
            == .hello(client: nil, subscribe: [.state, .meters]))
        #expect(try parse(#"{"type":"hello","client":"c1-ab12"}"#) == .hello(client: "c1-ab12", subscribe: Set(StudioSubscription.allCases)))
        #expect(try parse(#"{"type":"select","instrument":"hecate"}"#) == .select(instrument: "hecate"))
        #expect(try parse(#"{"type":"set","path":"hecate.key","value":"D"}"#) == .set(path: "hecate.key", value: "D"))
        #expect(try parse(#"{"type":"action","path":"hecate.chord","value":3}"#) == .action(path: "hecate.chord", value: 3))
        #expect(try parse(#"{"type":"touch","id":3,"phase":"move","x":0.25,"y":1,"pressure":0.5}"#)
            == .touch(StudioTouch(id: 3, phase: .move, x: 0.25, y: 1, pressure: 0.5)))
        #expect(try parse(#"{"type":"touch","id":0,"phase":"up"}"#) == .touch(StudioTouch(id: 0, phase: .up, x: 0, y: 0, pressure: 1)))
        #expect(try parse(#"{"type":"ping","t":12.5}"#) == .ping(t: 12.5))
    }

    @Test("bad messages get stable codes")
    func errors() {
        #expect(code("[1]") == "bad_message")
        #expect(code(#"{"t":1}"#) == "bad_message")
        #expect(code(#"{"type":"dance"}"#) == "unknown_type")
        #expect(code(#"{"type":"set","path":"nodot","value":1}"#) == "bad_message")
        #expect(code(#"{"type":"set","path":"a..b","value":1}"#) == "bad_message")
        #expect(code(#"{"type":"set","path":"../etc.passwd","value":1}"#) == "bad_message")
        #expect(code(#"{"type":"set","path":"a.b"}"#) == "bad_message")
        #expect(code(#"{"type":"set","path":"a.b","value":{"x":1}}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":4,"phase":"down","x":0,"y":0}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":1.5,"phase":"down","x":0,"y":0}"#) == "bad_message")
        // Whole numbers past Int's range are refused, not converted (found by libFuzzer: the conversion trapped).
        #expect(code(#"{"type":"touch","id":1e300,"phase":"down","x":0,"y":0}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":-9223372036854775809,"phase":"down","x":0,"y":0}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":1,"phase":"down","x":1.5,"y":0}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":1,"phase":"down","y":0}"#) == "bad_message")
        #expect(code(#"{"type":"touch","id":1,"phase":"hover","x":0,"y":0}"#) == "bad_message")
        #expect(code(#"{"type":"hello","client":"bad id!"}"#) == "bad_message")
        #expect(code(#"{"type":"select","instrument":""}"#) == "bad_message")
        #expect(code(#"{"type":"ping"}"#) == "bad_message")
        #expect(code("{") == "malformed_json")
        #expect(code(String(repeating: " ", count: 17 * 1024) + "{}") == "too_large")
    }
}
