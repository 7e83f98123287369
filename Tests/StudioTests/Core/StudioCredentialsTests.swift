import Studio
import Testing

@Suite("Studio credentials (the one token parser)")
struct StudioCredentialsTests {
    @Test("the query's token= and the cookie, wherever they sit; absent is nil")
    func parse() {
        #expect(StudioCredentials(target: "/ws?token=abc-123_x.y", cookie: nil) == .init(queryToken: "abc-123_x.y", cookieToken: nil))
        #expect(StudioCredentials(target: "/?a=1&token=t0k3n#frag", cookie: "x=1; prospero_studio=c00kie").queryToken == "t0k3n")
        #expect(StudioCredentials(target: "/", cookie: "x=1; prospero_studio=c00kie").cookieToken == "c00kie")
        #expect(StudioCredentials(target: "/js/studio.js", cookie: "prospero_studioX=1").presented == false)
        #expect(StudioCredentials(target: "/?tokenx=1&xtoken=2", cookie: nil).queryToken == nil)
        #expect(StudioCredentials(target: "/?token=", cookie: nil).queryToken == "")
    }

    @Test("percent escapes decode; a broken one is no token")
    func percent() {
        #expect(StudioCredentials.queryToken(inTarget: "/?token=ab%2Dcd") == "ab-cd")
        #expect(StudioCredentials.queryToken(inTarget: "/?token=ab%2") == nil)
        #expect(StudioCredentials.queryToken(inTarget: "/?token=%ff%fe") == nil)
    }

    @Test("a wrong token presented counts as a guess; a missing one or a foreign Host does not")
    func guesses() {
        let lan = StudioSecurity(bindHost: "192.168.1.20", port: 8080, token: "s3cret-token")
        let wrong = StudioCredentials(queryToken: "guess-0001", cookieToken: nil)
        let none = StudioCredentials(queryToken: nil, cookieToken: nil)
        let page = lan.decideRequest(host: "192.168.1.20:8080", credentials: wrong)
        #expect(page == .unauthorized && lan.isWrongToken(page, wrong))
        let missing = lan.decideRequest(host: "192.168.1.20:8080", credentials: none)
        #expect(!lan.isWrongToken(missing, none))
        let foreign = lan.decideUpgrade(host: "192.168.1.20:8080", origin: "http://evil.example", credentials: .init(queryToken: "s3cret-token", cookieToken: nil))
        #expect(foreign == .forbidden && !lan.isWrongToken(foreign, .init(queryToken: "s3cret-token", cookieToken: nil)))
        #expect(StudioSecurity.Decision.tooManyGuesses.status == 429)
    }
}
