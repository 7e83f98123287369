import Foundation
import Glibc
import LiveHost
import ProsperoTestSupport
import Studio
import StudioServer
import Testing

/// The studio as it is reached for real: static paths that try to leave the web root, the
/// Content-Security-Policy of every page (checked in Chromium too), HTTPS with a certificate from the test's
/// own authority (Chromium trusts it through an NSS database), plain HTTP from another machine (a network
/// namespace the test makes), and a token printed once.
@Suite("Studio trust", .serialized, .takingTurns())
struct StudioTrustTests {
    // MARK: Static paths

    /// A web root with a page and a script, next to a secret file (outside the root) that a symlink inside
    /// the root points at.
    static func webRootBesideASecret() throws -> (root: URL, web: URL, secret: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("studio-root-\(UUID().uuidString)")
        let web = root.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: web.appendingPathComponent("js"), withIntermediateDirectories: true)
        let secret = "SECRET-\(UUID().uuidString)"
        try "<!doctype html><title>home</title>".write(to: web.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "export const x = 1;".write(to: web.appendingPathComponent("js/a.js"), atomically: true, encoding: .utf8)
        try secret.write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: web.appendingPathComponent("js/link.txt").path, withDestinationPath: "../../secret.txt")
        return (root, web, secret)
    }

    /// A studio (the test tone only) serving `resources` on a free loopback port; request the returned stop to end it.
    static func serve(_ resources: StudioResources) throws -> (StudioServer, Int, LiveStop) {
        var options = StudioServerOptions()
        options.port = 0
        let executor = DispatchTaskExecutor(label: "studio-trust-server")
        options.executor = executor
        let server = StudioServer(session: StudioSession(instruments: [StudioToneInstrument()]), options: options, resources: resources)
        let stop = LiveStop()
        Task.detached(executorPreference: executor) { try? await server.run(stop: stop) }
        guard let port = server.waitUntilListening(timeout: .seconds(20)) else {
            stop.request(.requested)
            throw RawClient.Failure("the studio server did not start")
        }
        return (server, port, stop)
    }

    /// Every spelling of "up one level" that a server could decode into a path outside its root: raw `..`,
    /// percent-encoded dots and slashes in either case, double encoding, backslashes (raw and encoded),
    /// overlong UTF-8 dots, NUL (encoded, and raw in the request line), and the symlink inside the root.
    static let escapes = [
        "/../secret.txt", "/js/../../secret.txt", "/./../secret.txt", "//../secret.txt",
        "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/js/%2e%2e/%2e%2e/secret.txt", "/.%2e/secret.txt", "/%2e./secret.txt",
        "/..%2fsecret.txt", "/..%2Fsecret.txt", "/js%2f..%2f..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
        "/%252e%252e/secret.txt", "/%252e%252e%252fsecret.txt", "/js/%252e%252e/%252e%252e/secret.txt", "/%25252e%25252e/secret.txt",
        "/..\\secret.txt", "/js\\..\\..\\secret.txt", "/..%5csecret.txt", "/..%5Csecret.txt", "/js%5c..%5c..%5csecret.txt", "/%255c..%255csecret.txt",
        "/%c0%ae%c0%ae/secret.txt", "/%c0%2e%c0%2e/secret.txt", "/%e0%80%ae%e0%80%ae/secret.txt",
        "/../secret.txt%00", "/../secret.txt%00.js", "/js/a.js%00/../../../secret.txt", "/%00/../secret.txt", "/js/a.js\u{0}",
        "/js/link.txt", "/js/%6c%69%6e%6b.txt", "/secret.txt", "/web/../secret.txt",
    ]

    @Test("static paths never leave the web root: encoded .., double encoding, backslashes, NUL, a symlink")
    func staticPathsStayInTheWebRoot() throws {
        let (root, web, secret) = try Self.webRootBesideASecret()
        defer { try? FileManager.default.removeItem(at: root) }
        let resources = try StudioResources(directory: web)
        #expect(resources.file(at: "/js/link.txt") == nil, "the symlink out of the root is not served")
        let (server, port, stop) = try Self.serve(resources)
        defer { stop.request(.requested); _ = server }
        let studio = (port: port, host: "127.0.0.1:\(port)")
        // The two files inside the root are served (so a refusal below is the path's doing).
        #expect(try RawClient(port: studio.port).request("/", headers: [("Host", studio.host)]).status == 200)
        #expect(try RawClient(port: studio.port).request("/js/a.js", headers: [("Host", studio.host)]).status == 200)
        for path in Self.escapes {
            let response: RawClient.HTTPResponse
            do { response = try RawClient(port: studio.port).request(path, headers: [("Host", studio.host)]) } catch {
                continue  // the connection was closed without an answer: nothing served
            }
            #expect([400, 404].contains(response.status), "\(path.debugDescription): \(response.status)")
            #expect(!response.body.contains(secret) && !response.head.contains(secret), "\(path.debugDescription) served the secret")
        }
    }

    // MARK: Content-Security-Policy

    @Test("every page and file carries the Content-Security-Policy (self only, no inline script or style)")
    func everyPageCarriesTheContentSecurityPolicy() throws {
        let resources = try StudioResources.bundled()
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let pages = resources.files.keys.filter { $0.hasSuffix("/") || $0.hasSuffix(".html") }.sorted()
        #expect(pages.count >= 8, "\(pages)")
        for path in pages + ["/js/studio.js", "/css/studio.css"] {
            let response = try RawClient(port: studio.port).request(path, headers: [("Host", studio.host)])
            #expect(response.status == 200, "\(path)")
            #expect(response.header("content-security-policy") == StudioServer.contentSecurityPolicy, "\(path): \(response.head)")
        }
        #expect(StudioServer.contentSecurityPolicy.contains("script-src 'self';") && !StudioServer.contentSecurityPolicy.contains("unsafe"))
        // No page keeps inline script, inline style or an inline event handler that the policy would refuse.
        for path in pages where path.hasSuffix(".html") {
            let html = String(decoding: resources.file(at: path)!.bytes, as: UTF8.self)
            #expect(!html.contains("<style"), "\(path) has a <style> element")
            #expect(html.components(separatedBy: "<script").dropFirst().allSatisfy { $0.hasPrefix(" type=\"module\" src=") }, "\(path) has an inline script")
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(path) has an inline event handler")
            #expect(html.range(of: #"\sstyle\s*="#, options: .regularExpression) == nil, "\(path) has a style attribute")
        }
    }

    @Test("every page works under the policy in Chromium, with no CSP violation reported",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func pagesWorkUnderThePolicyInChromium() async throws {
        try StudioBrowserTests.requirePeers()
        let (process, _, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try await StudioBrowserTests.run("core_csp.py", [url], timeout: 180)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }

    // MARK: HTTPS

    /// A certificate authority and a server certificate it signed for 127.0.0.1 and localhost (openssl).
    static func makeCertificates(in directory: URL, addresses: [String]) async throws -> (ca: URL, certificate: URL, key: URL) {
        let d = directory.path
        func openssl(_ arguments: [String]) async throws {
            let result = try await TestPeers.run("openssl", arguments, timeout: 60)
            try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.output)")
        }
        try await openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                           "-subj", "/CN=Prospero test CA", "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem",
                           "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try await openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                           "-subj", "/CN=prospero studio", "-keyout", "\(d)/studio.key", "-out", "\(d)/studio.csr"])
        let names = addresses.map { $0.first!.isNumber ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        try "subjectAltName=\(names)\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n"
            .write(toFile: "\(d)/ext.cnf", atomically: true, encoding: .utf8)
        try await openssl(["x509", "-req", "-in", "\(d)/studio.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-CAcreateserial",
                           "-days", "2", "-extfile", "\(d)/ext.cnf", "-out", "\(d)/studio.pem"])
        return (directory.appendingPathComponent("ca.pem"), directory.appendingPathComponent("studio.pem"), directory.appendingPathComponent("studio.key"))
    }

    static var httpsAvailable: Bool {
        StudioBrowserTests.available && TestPeers.executable("openssl") != nil && TestPeers.executable("certutil") != nil
    }

    @Test("HTTPS end to end: Chromium trusts the test's CA; secure context, wss://, Secure cookie, browser audio; plain http:// is told to use https",
          .enabled(if: TestPeers.enabled(httpsAvailable)))
    func httpsEndToEnd() async throws {
        try StudioBrowserTests.requirePeers()
        _ = try TestPeers.require(TestPeers.executable("openssl"), "openssl (apt-get install openssl)")
        _ = try TestPeers.require(TestPeers.executable("certutil"), "certutil (apt-get install libnss3-tools)")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-https-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let (ca, certificate, key) = try await Self.makeCertificates(in: work, addresses: ["127.0.0.1", "localhost"])
        let token = "https-test-\(UUID().uuidString.prefix(8))"
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "browser", "--no-settings",
                                                               "--tls", certificate.path, key.path], environment: StudioCommandTests.environment(token: token))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(url.hasPrefix("https://127.0.0.1:") && url.hasSuffix("/?token=\(token)"), "\(url)")
        let port = Int(url.dropFirst("https://127.0.0.1:".count).prefix { $0.isNumber })!

        // Plain HTTP to the TLS port: a clear answer, not a dropped connection.
        let plain = try RawClient(port: port).request("/", headers: [("Host", "127.0.0.1:\(port)")])
        #expect(plain.status == 400, "\(plain.head)")
        #expect(plain.body.contains("This port serves HTTPS: open https://127.0.0.1:\(port)/"), "\(plain.body)")

        try await StudioBrowserTests.run("core_https.py", [url, ca.path, work.path], timeout: 120)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    @Test("HTTPS from OpenSSL's own client: whole files over keep-alive and 16 connections at once, TLS 1.0/1.1 and TLS 1.2 without forward secrecy or AEAD refused, hostile handshakes end only their connection, close_notify answered (a half-close too); a key that does not match its certificate stops the start with OpenSSL's reason",
          .enabled(if: TestPeers.enabled(TestPeers.executable("openssl") != nil && TestPeers.executable("python3") != nil)))
    func httpsForAnyClient() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let (ca, certificate, key) = try await Self.makeCertificates(in: work, addresses: ["127.0.0.1"])
        let token = "tls-test-\(UUID().uuidString.prefix(8))"
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings",
                                                               "--tls", certificate.path, key.path], environment: StudioCommandTests.environment(token: token))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = Int(url.dropFirst("https://127.0.0.1:".count).prefix { $0.isNumber })!
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StudioServer/Resources/web")
        let files = ["icons/icon-512.png", "js/studio.js", "index.html", "css/studio.css"]
            .filter { FileManager.default.fileExists(atPath: web.appendingPathComponent($0).path) }
        try #require(files.count >= 2, "the test's files moved: \(files)")
        let script = StudioBrowserTests.browser.appendingPathComponent("core_tls.py").path
        let result = try await TestPeers.run("python3", [script, String(port), ca.path, token, web.path] + files, timeout: 120)
        #expect(result.status == 0, "core_tls.py: \(result.output)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        // The CA's key is a valid key, but not the certificate's: the studio says so and does not start.
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable")
        let wrong = try await TestPeers.run(prospero.path, ["studio", "--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings",
                                                            "--tls", certificate.path, work.appendingPathComponent("ca.key").path], timeout: 60)
        #expect(wrong.status != 0 && wrong.output.contains("--tls") && wrong.output.lowercased().contains("key"), "\(wrong.output)")
    }

    // MARK: The LAN

    /// A network namespace standing in for another machine on the LAN: a veth pair, this side
    /// 10.231.N.1/30, the other side 10.231.N.2/30 (a private range, inside the sandbox only); deleted by `remove`.
    struct OtherMachine {
        let namespace: String
        let hostSide: String
        let address: String

        init() async throws {
            let n = Int(getpid() % 200) + Int.random(in: 0..<50)
            namespace = "prospero-lan-\(getpid())-\(n)"
            hostSide = "pl\(getpid() % 100_000)h\(n)"
            let otherSide = "pl\(getpid() % 100_000)o\(n)"
            address = "10.231.\(n).1"
            let steps: [[String]] = [
                ["netns", "add", namespace],
                ["link", "add", hostSide, "type", "veth", "peer", "name", otherSide],
                ["link", "set", otherSide, "netns", namespace],
                ["addr", "add", "\(address)/30", "dev", hostSide],
                ["link", "set", hostSide, "up"],
                ["netns", "exec", namespace, "ip", "addr", "add", "10.231.\(n).2/30", "dev", otherSide],
                ["netns", "exec", namespace, "ip", "link", "set", otherSide, "up"],
                ["netns", "exec", namespace, "ip", "link", "set", "lo", "up"],
            ]
            for step in steps {
                let result = try await TestPeers.run("ip", step, timeout: 20)
                if result.status != 0 {
                    await remove()
                    throw RawClient.Failure("ip \(step.joined(separator: " ")): \(result.output)")
                }
            }
        }

        /// Deleting the namespace deletes its end of the pair, and with it this end.
        func remove() async {
            _ = try? await TestPeers.run("ip", ["netns", "delete", namespace], timeout: 20)
            _ = try? await TestPeers.run("ip", ["link", "delete", hostSide], timeout: 20)
        }
    }

    /// Network namespaces need root (CAP_SYS_ADMIN), which is a property of the machine, not a package.
    static var canMakeNamespaces: Bool { getuid() == 0 && TestPeers.executable("ip") != nil }

    @Test("from another machine over plain HTTP the page says why it cannot play sound and how to start HTTPS; the token is printed once",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func plainHTTPFromAnotherMachine() async throws {
        try StudioBrowserTests.requirePeers()
        guard Self.canMakeNamespaces else {
            print("skipping: a network namespace needs root and ip (iproute2)")
            return
        }
        let other = try await OtherMachine()
        let token = "lan-test-\(UUID().uuidString.prefix(12))"
        do {
            let (process, log, url) = try StudioCommandTests.start(["--host", other.address, "--port", "0", "--osc-port", "0",
                                                                   "--audio", "browser", "--no-settings"],
                                                                  environment: StudioCommandTests.environment(token: token))
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            #expect(url.hasPrefix("http://\(other.address):"), "\(url)")
            let python = try TestPeers.require(TestPeers.executable("python3"), "python3")
            let script = StudioBrowserTests.browser.appendingPathComponent("core_lan.py").path
            let result = try await TestPeers.run("ip", ["netns", "exec", other.namespace, python, script, url], timeout: 120)
            #expect(result.status == 0, "core_lan.py: \(result.output)")
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "\(output)")
            Self.expectTokenOnlyInTheFirstURLLine(output, token: token)
        } catch {
            await other.remove()
            throw error
        }
        await other.remove()
    }

    /// The token appears in the output once: in the first line that prints the URL.
    static func expectTokenOnlyInTheFirstURLLine(_ output: String, token: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let carrying = lines.enumerated().filter { $0.element.contains(token) }.map(\.offset)
        let firstURL = lines.firstIndex { $0.contains("http://") || $0.contains("https://") }
        #expect(carrying.count == 1 && carrying.first == firstURL, "the token is printed on lines \(carrying), the first URL line is \(String(describing: firstURL)):\n\(output)",
                sourceLocation: sourceLocation)
    }

    @Test("bound to every interface, the token is printed once (the LAN URL and the QR caption leave it out)")
    func tokenPrintedOnceOnEveryInterface() throws {
        let token = "any-test-\(UUID().uuidString.prefix(12))"
        let (process, log, url) = try StudioCommandTests.start(["--host", "0.0.0.0", "--port", "0", "--osc-port", "0",
                                                               "--audio", "none", "--no-settings"], environment: StudioCommandTests.environment(token: token))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = Int(url.split(separator: ":").last!.prefix { $0.isNumber })!
        for query in ["/?token=wrong-token-123", "/?token=\(token)", "/js/studio.js"] {
            _ = try? RawClient(port: port).request(query, headers: [("Host", "127.0.0.1:\(port)")])
        }
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "\(output)")
        Self.expectTokenOnlyInTheFirstURLLine(output, token: token)
        if !StudioNetwork.localAddresses().isEmpty {
            #expect(output.contains("studio: on the LAN: http://"), "\(output)")
        }
    }
}
