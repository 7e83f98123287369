import Foundation
import Glibc
import ProsperoTestSupport
import StudioServer
import Testing

/// The TLS handler's worst sequence against a running `prospero studio --tls`: over a real TCP connection, a TLS 1.2
/// handshake, then a renegotiation ClientHello and close_notify in one segment and a TCP reset (SO_LINGER 0), with its
/// variants (the two split across segments, close_notify alone, a forged record of garbage), each a few times. The
/// studio must stay up and serve a normal HTTPS request after every one. The client is ``StudioTLSTestClient``
/// (OpenSSL through the studio's own loader), which seals the close_notify OpenSSL itself will not send mid-handshake.
@Suite("Studio TLS attacks", .serialized)
struct StudioTLSAttackTests {
    /// A blocking TCP connection to 127.0.0.1:`port` with a receive timeout (a generous bound, not a figure).
    struct Socket {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0, "connect: \(errno)")
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }

        /// All of `bytes` in one write (one segment for anything under the MSS).
        func send(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// What arrived, waiting up to the receive timeout for the first byte; empty at the end of the stream.
        func receive() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? Array(buffer.prefix(n)) : []
        }

        /// Closes with a TCP reset instead of a FIN.
        func reset() {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            Glibc.close(fd)
        }

        func close() { Glibc.close(fd) }
    }

    /// A client connected and through its handshake.
    static func connect(port: Int, tls12: Bool) throws -> (Socket, StudioTLSTestClient) {
        let socket = try Socket(port: port)
        let client = try StudioTLSTestClient(maximumTLS12: tls12)
        for _ in 0..<8 {
            let progress = client.handshake()
            socket.send(client.takeOutput())
            if progress == .done { return (socket, client) }
            let answer = socket.receive()
            try #require(!answer.isEmpty, "the studio closed the connection in the handshake")
            client.feed(answer)
        }
        throw RawClient.Failure("the handshake did not finish")
    }

    /// One HTTPS request for `/` on a new connection: the status line.
    static func served(port: Int) throws -> String {
        let (socket, client) = try connect(port: port, tls12: false)
        defer { socket.close() }
        client.write(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8))
        socket.send(client.takeOutput())
        var text: [UInt8] = []
        while !text.contains(UInt8(ascii: "\n")) {
            let bytes = socket.receive()
            if bytes.isEmpty { break }
            client.feed(bytes)
            text += client.read()
        }
        return String(decoding: text.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    /// `prospero studio --tls` (no audio, no settings) with a certificate made in a new directory (`work`, for the
    /// caller to remove): its process, log and HTTPS port.
    static func startTLSStudio() async throws -> (process: Process, log: URL, port: Int, work: URL) {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studio-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let (_, certificate, key) = try await StudioTrustTests.makeCertificates(in: work, addresses: ["127.0.0.1"])
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-settings",
                                                               "--tls", certificate.path, key.path])
        return (process, log, Int(url.dropFirst("https://127.0.0.1:".count).prefix { $0.isNumber })!, work)
    }

    enum Attack: String, CaseIterable, CustomStringConvertible {
        case renegotiationAndCloseNotify, splitAcrossSegments, closeNotifyAlone, forgedGarbage
        var description: String { rawValue }
    }

    @Test("renegotiation ClientHello + close_notify + reset, and its variants, three times each: the studio keeps serving",
          .enabled(if: TestPeers.enabled(TestPeers.executable("openssl") != nil)))
    func studioSurvives() async throws {
        let (process, log, port, work) = try await Self.startTLSStudio()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: work)
        }
        #expect(try Self.served(port: port).hasPrefix("HTTP/1.1 200"))
        for attack in Attack.allCases {
            for _ in 0..<3 {
                let (socket, client) = try Self.connect(port: port, tls12: true)
                switch attack {
                case .renegotiationAndCloseNotify:
                    client.renegotiate()
                    socket.send(client.takeOutput() + client.sealedCloseNotify())
                case .splitAcrossSegments:
                    client.renegotiate()
                    socket.send(client.takeOutput())
                    socket.send(client.sealedCloseNotify())
                case .closeNotifyAlone:
                    client.shutdown()
                    socket.send(client.takeOutput())
                case .forgedGarbage:
                    socket.send(client.seal(type: 22, [0xFF, 0, 0, 4, 1, 2, 3, 4]) + client.sealedCloseNotify())
                }
                socket.reset()
            }
            #expect(process.isRunning, "\(attack) stopped the studio: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            guard process.isRunning else { return }
            #expect(try Self.served(port: port).hasPrefix("HTTP/1.1 200"), "after \(attack)")
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
