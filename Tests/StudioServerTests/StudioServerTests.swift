import Foundation
import ProsperoTestSupport
import Studio
import StudioServer
import Testing

/// The server over real loopback sockets: what it serves, whom it refuses, how it answers bad messages.
@Suite("Studio server", .serialized)
struct StudioServerTests {
    @Test("Home, scripts and styles are served from the bundle; unknown paths and traversal are 404")
    func resources() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let home = try RawClient(port: studio.port).request("/", headers: [("Host", studio.host)])
        #expect(home.status == 200)
        #expect(home.header("content-type") == "text/html; charset=utf-8")
        #expect(home.body.contains("data-testid=\"home\""))
        let script = try RawClient(port: studio.port).request("/js/studio.js", headers: [("Host", studio.host)])
        #expect(script.status == 200 && script.header("content-type") == "text/javascript; charset=utf-8")
        #expect(script.header("x-content-type-options") == "nosniff")
        for path in ["/nothing.html", "/../Package.swift", "/%2e%2e/Package.swift", "/js/../../Package.swift"] {
            let r = try RawClient(port: studio.port).request(path, headers: [("Host", studio.host)])
            #expect(r.status == 404 || r.status == 400, "\(path): \(r.status)")
        }
        let redirect = try RawClient(port: studio.port).request("/tone", headers: [("Host", studio.host)])
        #expect(redirect.status == 301 && redirect.header("location") == "/tone/")
    }

    @Test("a Host that is not this server is refused (DNS rebinding), for pages and upgrades")
    func hostAllowList() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let page = try RawClient(port: studio.port).request("/", headers: [("Host", "rebind.example:\(studio.port)")])
        #expect(page.status == 421)
        let ws = try RawClient(port: studio.port).upgrade(host: "rebind.example:\(studio.port)", origin: "http://rebind.example:\(studio.port)")
        #expect(ws.status == 421)
        let ok = try RawClient(port: studio.port).request("/", headers: [("Host", "localhost:\(studio.port)")])
        #expect(ok.status == 200)
    }

    @Test("with a token: none → 401 / 403; ?token= sets an HttpOnly SameSite=Strict cookie that then suffices")
    func token() throws {
        let studio = try StudioTestServer(token: "test-token-1234")
        defer { studio.stop() }
        let none = try RawClient(port: studio.port).request("/", headers: [("Host", studio.host)])
        #expect(none.status == 401)
        let script = try RawClient(port: studio.port).request("/js/studio.js", headers: [("Host", studio.host)])
        #expect(script.status == 401)
        let withToken = try RawClient(port: studio.port).request("/?token=test-token-1234", headers: [("Host", studio.host)])
        #expect(withToken.status == 200)
        #expect(withToken.header("set-cookie") == "prospero_studio=test-token-1234; Path=/; HttpOnly; SameSite=Strict")
        let withCookie = try RawClient(port: studio.port).request("/", headers: [("Host", studio.host), ("Cookie", "prospero_studio=test-token-1234")])
        #expect(withCookie.status == 200)
        let wrong = try RawClient(port: studio.port).request("/", headers: [("Host", studio.host), ("Cookie", "prospero_studio=nope-nope-nope")])
        #expect(wrong.status == 401)
        let wsNoToken = try RawClient(port: studio.port).upgrade(host: studio.host, origin: studio.origin)
        #expect(wsNoToken.status == 403)
        let wsNoOrigin = try RawClient(port: studio.port).upgrade(host: studio.host, origin: nil)
        #expect(wsNoOrigin.status == 403)
        let wsCookie = try RawClient(port: studio.port).upgrade(host: studio.host, origin: studio.origin, cookie: "prospero_studio=test-token-1234")
        #expect(wsCookie.status == 101)
        let wsQuery = try RawClient(port: studio.port).upgrade(host: studio.host, origin: nil, path: "/ws?token=test-token-1234")
        #expect(wsQuery.status == 101)
    }

    @Test("a WebSocket from another site's page is refused with 403")
    func crossSiteOrigin() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        for origin in ["http://evil.example", "http://127.0.0.1:1", "null"] {
            let r = try RawClient(port: studio.port).upgrade(host: studio.host, origin: origin)
            #expect(r.status == 403, "\(origin)")
        }
        let same = try RawClient(port: studio.port).upgrade(host: studio.host, origin: studio.origin)
        #expect(same.status == 101)
    }

    @Test("over the socket: a set reaches every client; malformed, oversized and binary messages are answered and counted")
    func messages() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let (a, welcome) = try studio.socket(subscribe: #"["state"]"#)
        #expect(welcome["v"] as? Int == 1 && welcome["instrument"] as? String == "tone")
        let (b, _) = try studio.socket(subscribe: #"["state"]"#)
        a.sendText(#"{"type":"set","path":"tone.frequency","value":440}"#)
        for client in [a, b] {
            let changed = client.readJSON(until: { $0["type"] as? String == "changed" })
            #expect((changed?["changes"] as? [String: Any])?["frequency"] as? Int == 440)
        }
        a.sendText("{not json")
        #expect(a.readJSON(until: { $0["type"] as? String == "error" })?["code"] as? String == "malformed_json")
        a.sendText(#"{"type":"set","path":"tone.x","value":""# + String(repeating: "x", count: 20_000) + #""}"#)
        #expect(a.readJSON(until: { $0["type"] as? String == "error" })?["code"] as? String == "too_large")
        a.sendFrame([1, 2, 3], opcode: 2)
        #expect(a.readJSON(until: { $0["type"] as? String == "error" })?["code"] as? String == "bad_message")
        // Still connected after all that.
        a.sendText(#"{"type":"ping","t":7}"#)
        #expect(a.readJSON(until: { $0["type"] as? String == "pong" })?["t"] as? Int == 7)
        #expect(studio.session.statistics.malformed == 3)
        // 70 kB in one frame: read, refused by the parser's 16 KiB limit, counted; the socket stays open.
        a.sendFrame([UInt8](repeating: 0x20, count: 70_000))
        #expect(a.readJSON(until: { $0["type"] as? String == "error" })?["code"] as? String == "too_large")
        #expect(studio.session.statistics.malformed == 4)
        // A frame over the WebSocket layer's limit (128 KiB) closes the socket: the reads meet the end of the stream
        // (a read timeout far beyond a busy machine's delays would say it stayed open).
        a.sendFrame([UInt8](repeating: 0x20, count: 200_000))
        while a.readFrame() != nil {}
        #expect(!a.readTimedOut, "the socket was not closed")
    }

    @Test("meters arrive as binary frames and rest at silence when nothing renders")
    func meters() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let (a, _) = try studio.socket(subscribe: #"["meters"]"#)
        var frames = 0
        while frames < 5, let frame = a.readFrame() {
            guard frame.opcode == 2 else { continue }
            let decoded = StudioBinaryFrame.decodeFloats(frame.payload)
            #expect(decoded?.0 == .meters && decoded?.1 == [0, 0, 0, 0])
            frames += 1
        }
        #expect(frames == 5)
    }
}
