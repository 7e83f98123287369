import Foundation
import NIOCore
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
                                           address: StudioAddressBlock("192.168.1.50"), now: 100 + Double(i) * 0.01))
        }
        #expect(decisions.prefix(10).allSatisfy { $0 == .forbidden })
        #expect(decisions.dropFirst(10).allSatisfy { $0 == .tooManyGuesses })
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1 && logged[0].contains("192.168.1.50") && !logged[0].contains("guess"), "\(logged)")
        // Another address is not affected; the blocked one may try again a minute later.
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: StudioAddressBlock("192.168.1.51"), now: 101) == .allowSettingCookie)
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: StudioAddressBlock("192.168.1.50"), now: 160.2) == .allowSettingCookie)
    }

    @Test("guessing is counted per address block: all of loopback is one, an IPv6 /64 is one, an IPv4-mapped address is its IPv4 one")
    func blocks() throws {
        let v4 = { (text: String) in try #require(StudioAddressBlock(try SocketAddress(ipAddress: text, port: 1))) }
        #expect(try v4("127.0.0.1") == .loopback && v4("127.45.6.7") == .loopback && v4("::1") == .loopback)
        #expect(try v4("192.168.1.7").description == "192.168.1.7")
        #expect(try v4("::ffff:192.168.1.7").description == "192.168.1.7" && v4("::ffff:127.0.0.9") == .loopback)
        #expect(try v4("2001:db8:1:2::5") == v4("2001:db8:1:2:ffff:1:2:3"))
        #expect(try v4("2001:db8:1:2::5").description == "2001:db8:1:2::/64")
        #expect(try v4("2001:db8:1:3::5") != v4("2001:db8:1:2::5"))

        // Ten wrong tokens from each of two addresses of one /64: the eleventh, from either, blocks the block.
        let access = StudioAccess(security: { StudioSecurity(bindHost: "0.0.0.0", port: 8080, token: "right-token-1") }, scheme: "http", log: { _ in })
        let a = try v4("2001:db8:1:2::a"), b = try v4("2001:db8:1:2::b")
        var decisions: [StudioSecurity.Decision] = []
        for i in 0..<11 {
            decisions.append(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=guess-\(i)", cookie: nil,
                                           address: i % 2 == 0 ? a : b, now: 10 + Double(i) * 0.01))
        }
        #expect(decisions.prefix(10).allSatisfy { $0 == .unauthorized } && decisions.last == .tooManyGuesses, "\(decisions)")
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: try v4("2001:db8:1:2::c"), now: 11) == .tooManyGuesses)
    }

    @Test("many addresses guessing together: past 40 wrong tokens in a second every token check is refused for 10 s, but this machine's")
    func totalLimit() throws {
        let lines = Mutex<[String]>([])
        let access = StudioAccess(security: { StudioSecurity(bindHost: "0.0.0.0", port: 8080, token: "right-token-1") }, scheme: "http",
                                  log: { line in lines.withLock { $0.append(line) } })
        // Nine wrong tokens from each of five addresses (each under its own limit): the 41st blocks the total.
        var decisions: [StudioSecurity.Decision] = []
        for i in 0..<45 {
            decisions.append(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=guess-\(i)", cookie: nil,
                                           address: StudioAddressBlock("10.0.0.\(i % 5)"), now: 50 + Double(i) * 0.01))
        }
        #expect(decisions.prefix(40).allSatisfy { $0 == .unauthorized } && decisions.dropFirst(40).allSatisfy { $0 == .tooManyGuesses }, "\(decisions)")
        // The right token from a new address is refused too (no answer tells a guess from the token), this machine's is not.
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: StudioAddressBlock("10.0.0.99"), now: 51) == .tooManyGuesses)
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: .loopback, now: 51) == .allowSettingCookie)
        // Ten seconds on, the right token passes again.
        #expect(access.decide(.page, host: "127.0.0.1:8080", origin: nil, target: "/?token=right-token-1", cookie: nil,
                              address: StudioAddressBlock("10.0.0.99"), now: 60.5) == .allowSettingCookie)
        #expect(access.guessing.totalBlocks == 1)
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1 && logged[0].contains("several addresses") && !logged[0].contains("guess-"), "\(logged)")
    }
}
