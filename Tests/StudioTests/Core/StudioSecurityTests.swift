import ProsperoTestSupport
import Studio
import Testing

@Suite("Studio security decisions")
struct StudioSecurityTests {
    let loopback = StudioSecurity(bindHost: "127.0.0.1", port: 8080, token: nil)
    let lan = StudioSecurity(bindHost: "192.168.1.20", port: 8080, token: "s3cret-token")

    @Test("Host allow-list: loopback names and the bound address, nothing else (DNS rebinding)")
    func hosts() {
        for h in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "127.0.0.1"] { #expect(loopback.hostAllowed(h), "\(h)") }
        for h in ["evil.example:8080", "127.0.0.2:8080", "192.168.1.20:8080", "", "attacker.localhost.evil"] {
            #expect(!loopback.hostAllowed(h), "\(h)")
        }
        #expect(!loopback.hostAllowed(nil))
        #expect(lan.hostAllowed("192.168.1.20:8080"))
        #expect(!lan.hostAllowed("192.168.1.21:8080"))
        let any = StudioSecurity(bindHost: "0.0.0.0", port: 8080, token: "t0k3n-abc", extraHosts: ["10.0.0.5"])
        #expect(!any.hostAllowed("0.0.0.0:8080"))
        #expect(any.hostAllowed("10.0.0.5:8080"))
    }

    @Test("loopback without a token: pages allowed; a foreign Host is refused")
    func loopbackRequests() {
        #expect(loopback.decideRequest(host: "127.0.0.1:8080", queryToken: nil, cookie: nil) == .allow)
        #expect(loopback.decideRequest(host: "rebound.example:8080", queryToken: nil, cookie: nil) == .badHost)
    }

    @Test("off loopback: no token → 401; ?token= → allowed with the cookie; the cookie alone → allowed")
    func tokenRequests() {
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: nil, cookie: nil) == .unauthorized)
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: "wrong-token!", cookie: nil) == .unauthorized)
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: "s3cret-token", cookie: nil) == .allowSettingCookie)
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: nil, cookie: "a=b; prospero_studio=s3cret-token") == .allow)
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: nil, cookie: "prospero_studio=s3cret-tokeN") == .unauthorized)
        #expect(lan.decideRequest(host: "192.168.1.20:8080", queryToken: nil, cookie: nil).status == 401)
        #expect(lan.setCookie == "prospero_studio=s3cret-token; Path=/; HttpOnly; SameSite=Strict")
    }

    @Test("WebSocket Origin: the served origin only; cross-site → 403; no Origin needs the token")
    func origins() {
        #expect(loopback.decideUpgrade(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", queryToken: nil, cookie: nil) == .allow)
        #expect(loopback.decideUpgrade(host: "localhost:8080", origin: "http://localhost:8080", queryToken: nil, cookie: nil) == .allow)
        #expect(loopback.decideUpgrade(host: "[::1]:8080", origin: "http://[::1]:8080", queryToken: nil, cookie: nil) == .allow)
        for origin in ["http://evil.example", "http://127.0.0.1:8081", "https://127.0.0.1:8080", "null", "http://127.0.0.1:8080/x",
                       "http://localhost.evil.example:8080"] {
            #expect(loopback.decideUpgrade(host: "127.0.0.1:8080", origin: origin, queryToken: nil, cookie: nil) == .forbidden, "\(origin)")
        }
        // Loopback without a token: a non-browser client (no Origin) may connect.
        #expect(loopback.decideUpgrade(host: "127.0.0.1:8080", origin: nil, queryToken: nil, cookie: nil) == .allow)
        // With a token: no Origin and no token → 403; the token lets it in.
        #expect(lan.decideUpgrade(host: "192.168.1.20:8080", origin: nil, queryToken: nil, cookie: nil) == .forbidden)
        #expect(lan.decideUpgrade(host: "192.168.1.20:8080", origin: nil, queryToken: "s3cret-token", cookie: nil) == .allow)
        #expect(lan.decideUpgrade(host: "192.168.1.20:8080", origin: "http://192.168.1.20:8080", queryToken: nil, cookie: nil) == .forbidden)
        #expect(lan.decideUpgrade(host: "192.168.1.20:8080", origin: "http://192.168.1.20:8080", queryToken: nil,
                                  cookie: "prospero_studio=s3cret-token") == .allow)
        #expect(lan.decideUpgrade(host: "192.168.1.20:8080", origin: "http://evil.example", queryToken: nil,
                                  cookie: "prospero_studio=s3cret-token") == .forbidden)
        #expect(loopback.decideUpgrade(host: "evil.example", origin: "http://evil.example", queryToken: nil, cookie: nil) == .badHost)
    }

    @Test("tokens: random ones are 32 hex digits and valid; user tokens are checked")
    func tokens() {
        var g = SeededRandom(seed: 7)
        let t = StudioToken.random(using: &g)
        #expect(t.count == 32 && t.allSatisfy { $0.isHexDigit })
        #expect(StudioToken.isValid(t))
        #expect(!StudioToken.isValid("short"))
        #expect(!StudioToken.isValid("has space in it"))
        #expect(!StudioToken.isValid("semi;colon-token"))
        #expect(StudioSecurity.isLoopback("127.0.0.1") && StudioSecurity.isLoopback("::1") && !StudioSecurity.isLoopback("0.0.0.0"))
    }
}

