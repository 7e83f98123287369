import Foundation
import ProsperoTestSupport
import Studio
import StudioServer
import Synchronization
import Testing

/// Token guessing over real sockets: past 10 wrong tokens in a second an address gets 429 for pages and
/// upgrades alike (even with the right token), counted; the block is logged once.
@Suite("Studio token guessing over sockets", .serialized)
struct StudioGuessingServerTests {
    @Test("wrong tokens past 10 a second → 429 for pages and upgrades, even with the right token; counted")
    func guessing() throws {
        let studio = try StudioTestServer(token: "test-token-1234")
        defer { studio.stop() }
        var statuses: [Int] = []
        for i in 0..<30 {
            let r = try RawClient(port: studio.port).request("/?token=guess-\(1000 + i)", headers: [("Host", studio.host)])
            statuses.append(r.status)
            if r.status == 429 { break }
        }
        #expect(statuses.last == 429, "\(statuses)")
        #expect(statuses.dropLast().allSatisfy { $0 == 401 } && statuses.count == 11, "\(statuses)")
        let right = try RawClient(port: studio.port).request("/?token=test-token-1234", headers: [("Host", studio.host)])
        #expect(right.status == 429)
        #expect(right.header("retry-after") == "60")
        let ws = try RawClient(port: studio.port).upgrade(host: studio.host, origin: nil, path: "/ws?token=test-token-1234")
        #expect(ws.status == 429)
        #expect(studio.server.access.guessing.blocks == 1)
        #expect(studio.server.access.guessing.refused >= 2)
    }

    @Test("the block is logged once, naming the address and never the token; it ends after a minute")
    func loggedOnce() {
        let lines = Mutex<[String]>([])
        let access = StudioAccess(security: { StudioSecurity(bindHost: "0.0.0.0", port: 8080, token: "right-token-1") }, scheme: "http",
                                  log: { line in lines.withLock { $0.append(line) } })
        var decisions: [StudioSecurity.Decision] = []
        for i in 0..<40 {
            decisions.append(access.decide(.upgrade, host: "127.0.0.1:8080", origin: nil, target: "/ws?token=guess-\(i)", cookie: nil,
                                           address: "192.168.1.50", now: 100 + Double(i) * 0.01))
        }
        #expect(decisions.prefix(10).allSatisfy { $0 == .forbidden })
        #expect(decisions.dropFirst(10).allSatisfy { $0 == .tooManyGuesses })
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1 && logged[0].contains("192.168.1.50") && !logged[0].contains("guess"), "\(logged)")
        // Another address is not affected; the blocked one may try again a minute later.
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: "192.168.1.51", now: 101) == .allowSettingCookie)
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: "192.168.1.50", now: 160.2) == .allowSettingCookie)
    }
}
