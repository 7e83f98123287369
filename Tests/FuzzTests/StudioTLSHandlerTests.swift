import ProsperoFuzz
import StudioServer
import Testing

/// The studio's TLS handler (through ``StudioTLSHarness``) against a real OpenSSL client, on simulated time: the
/// sequence that once freed the SSL object under the handler, the ordinary exchanges around it, and the timers that
/// keep a peer from holding a connection.
@Suite("Studio TLS handler")
struct StudioTLSHandlerTests {
    /// A server handler and a client with their handshake done.
    static func connected(tls12: Bool) throws -> (StudioTLSHarness, StudioTLSTestClient) {
        let files = try #require(TLSConnectionFuzz.files)
        let server = try StudioTLSHarness(certificate: files.certificate, key: files.key)
        let client = try StudioTLSTestClient(maximumTLS12: tls12)
        for _ in 0..<4 {
            let progress = client.handshake()
            server.deliver(client.takeOutput())
            client.feed(server.takeWritten())
            if progress == .done { break }
        }
        #expect(client.handshake() == .done && server.isOpen)
        return (server, client)
    }

    @Test("a TLS 1.2 renegotiation ClientHello and close_notify in one segment, then a reset in the middle of the answer: the connection ends, nothing freed is touched, the next connection is served",
          arguments: [false, true])
    func renegotiationCloseNotifyReset(splitSegments: Bool) throws {
        let (server, client) = try Self.connected(tls12: true)
        _ = client.renegotiate()
        // OpenSSL will not send close_notify in the middle of a handshake; a hostile client will: sealed by hand.
        let hello = client.takeOutput()
        let closeNotify = client.sealedCloseNotify()
        #expect(hello.count > 100 && closeNotify.count == 31, "a ClientHello (\(hello.count) bytes) and an alert (\(closeNotify.count))")
        let records = hello + closeNotify
        server.resetSocket()
        if splitSegments {
            server.deliver(Array(records.prefix(records.count / 2)))
            server.deliver(Array(records.dropFirst(records.count / 2)))
        } else {
            server.deliver(records)
        }
        #expect(!server.isOpen)
        server.advance(milliseconds: 1000)
        server.finish()

        let (next, nextClient) = try Self.connected(tls12: true)
        #expect(nextClient.write(Array("GET / HTTP/1.1\r\n\r\n".utf8)))
        next.deliver(nextClient.takeOutput())
        #expect(next.takeReceived() == Array("GET / HTTP/1.1\r\n\r\n".utf8))
    }

    @Test("a request goes up whole, the answer comes back, and the server's close sends close_notify before the socket closes",
          arguments: [false, true])
    func exchange(tls12: Bool) throws {
        let (server, client) = try Self.connected(tls12: tls12)
        let request = Array("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(client.write(request))
        server.deliver(client.takeOutput())
        #expect(server.takeReceived() == request)
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        server.serverWrite(answer)
        client.feed(server.takeWritten())
        #expect(client.read() == answer)
        server.serverClose()
        #expect(!server.isOpen)
        // What went out last is close_notify: the client sees the end of the stream, not an error.
        client.feed(server.takeWritten())
        #expect(client.read().isEmpty)
    }

    @Test("a peer that does not read holds a closing connection at most 500 ms (close_notify cannot be written)")
    func closeNotifyTimeout() throws {
        let (server, _) = try Self.connected(tls12: false)
        server.stallSocket()
        server.serverClose()
        #expect(server.isOpen)
        server.advance(milliseconds: 499)
        #expect(server.isOpen)
        server.advance(milliseconds: 2)
        #expect(!server.isOpen)
    }

    @Test("a handshake that does not finish is cut at its timeout")
    func handshakeTimeout() throws {
        let files = try #require(TLSConnectionFuzz.files)
        let server = try StudioTLSHarness(certificate: files.certificate, key: files.key, handshakeTimeout: .seconds(10))
        let client = try StudioTLSTestClient(maximumTLS12: false)
        client.handshake()
        let hello = client.takeOutput()
        server.deliver(Array(hello.prefix(hello.count / 2)))
        server.advance(milliseconds: 9_999)
        #expect(server.isOpen)
        server.advance(milliseconds: 2)
        #expect(!server.isOpen)
    }

    @Test("a record with a flipped byte ends the connection with an alert; nothing is passed up")
    func tamperedRecord() throws {
        let (server, client) = try Self.connected(tls12: true)
        #expect(client.write(Array("secret".utf8)))
        var records = client.takeOutput()
        records[records.count - 3] ^= 0x40
        server.deliver(records)
        #expect(server.takeReceived().isEmpty)
        #expect(!server.isOpen)
    }
}
