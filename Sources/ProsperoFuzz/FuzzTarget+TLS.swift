import Foundation
import StudioServer

/// The studio's TLS handler (`StudioTLSHandler`, through `StudioTLSHarness`) against a real OpenSSL client, scripted
/// by the fuzzer's bytes: handshakes, TLS 1.2 renegotiations, TLS 1.3 key updates, records the client seals itself
/// (close_notify in the middle of a renegotiation, any content type), application data, close_notify, records delivered whole,
/// split or with a byte flipped, raw bytes, resets of the socket in the middle of a write, the server's own writes and
/// closes, half-closes and simulated time. Nothing may crash or touch freed memory (run it under AddressSanitizer:
/// `scripts/fuzz tlsConnection`), and the plaintext the handler passes up is always a prefix of what the client sent.
///
/// Input: the first byte's low bit picks TLS 1.2 (1) or 1.3 (0); then one operation per byte (its value modulo 16),
/// some taking the next byte as an argument. At most 64 operations run.
public enum TLSConnectionFuzz {
    /// A certificate and key made for this target only (P-256, self-signed, CN prospero-fuzz.invalid): the server
    /// needs one to handshake at all. It protects nothing.
    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIIBlzCCAT2gAwIBAgIUAje4QiEzhe1pYVAkkd/jhYKpz68wCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVcHJvc3Blcm8tZnV6ei5pbnZhbGlkMCAXDTI2MTIwMjE0MjAw
M1oYDzIxMjYxMTA4MTQyMDAzWjAgMR4wHAYDVQQDDBVwcm9zcGVyby1mdXp6Lmlu
dmFsaWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARzLlzUo2fs82oHkxqsTX7d
ssJ0mSOH6w3O5tUnNuswL5TMVMCnGTn5sMAucVtG27KSzubMI5dox6NBDp1tNmrL
o1MwUTAdBgNVHQ4EFgQUV5bjnAGPlB6MVq72EMUG2BDwlp8wHwYDVR0jBBgwFoAU
V5bjnAGPlB6MVq72EMUG2BDwlp8wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQD
AgNIADBFAiAOaQCzq6QQVmb6vB8IF92KH55anugh26pVciLxVsqHXQIhAJMzLV0F
9U6E9iJTJkNhxMX6KD3+u2xQojbL5B2nCiuY
-----END CERTIFICATE-----
"""
    static let keyPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg1ots37QB2DZCpbsv
QVMlsDQzbpg1mLlUuQh2VK8VH6mhRANCAARzLlzUo2fs82oHkxqsTX7dssJ0mSOH
6w3O5tUnNuswL5TMVMCnGTn5sMAucVtG27KSzubMI5dox6NBDp1tNmrL
-----END PRIVATE KEY-----
"""

    /// The PEM files, written once per process.
    public static let files: (certificate: String, key: String)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prospero-fuzz-tls-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem"), key = directory.appendingPathComponent("key.pem")
        guard (try? Data((certificatePEM + "\n").utf8).write(to: certificate)) != nil,
              (try? Data((keyPEM + "\n").utf8).write(to: key)) != nil else { return nil }
        return (certificate.path, key.path)
    }()

    static let maximumOperations = 64

    /// True when the script ran (a non-empty input on a machine with OpenSSL).
    static func run(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, let files,
              let server = try? StudioTLSHarness(certificate: files.certificate, key: files.key, handshakeTimeout: .seconds(10)),
              let client = try? StudioTLSTestClient(maximumTLS12: first & 1 == 1) else { return false }
        var input = bytes.dropFirst().makeIterator()
        var sent: [UInt8] = []
        var received: [UInt8] = []
        func argument() -> Int { Int(input.next() ?? 0) }
        func deliver(_ records: [UInt8]) { if !records.isEmpty { server.deliver(records) } }
        for _ in 0..<maximumOperations {
            guard let operation = input.next() else { break }
            switch operation % 16 {
            case 0:
                client.handshake()
                deliver(client.takeOutput())
            case 1:
                client.renegotiate()
            case 2:
                let data = (0..<argument()).map { UInt8(truncatingIfNeeded: sent.count + $0) }
                if client.write(data) { sent += data }
            case 3:
                client.shutdown()
            case 4:
                deliver(client.takeOutput())
            case 5:
                let records = client.takeOutput()
                let split = records.isEmpty ? 0 : argument() % (records.count + 1)
                deliver(Array(records[..<split]))
                deliver(Array(records[split...]))
            case 6:
                var records = client.takeOutput()
                if !records.isEmpty { records[argument() % records.count] ^= UInt8(truncatingIfNeeded: argument()) | 1 }
                deliver(records)
            case 7:
                server.resetSocket()
            case 8:
                server.serverWrite(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
            case 9:
                deliver((0..<argument()).compactMap { _ in input.next() })
            case 10:
                server.serverClose()
            case 11:
                server.peerHalfClose()
            case 12:
                server.advance(milliseconds: Int64(argument()) * 10)
            case 13:
                client.keyUpdate()
            case 14:
                // A forged close_notify, after whatever the client queued (a renegotiation's ClientHello, say).
                deliver(client.takeOutput() + client.sealedCloseNotify())
            default:
                // A sealed record of any type with the next bytes as its content.
                let type = UInt8(truncatingIfNeeded: argument())
                deliver(client.takeOutput() + client.seal(type: type, (0..<argument()).compactMap { _ in input.next() }))
            }
            client.feed(server.takeWritten())
            _ = client.read()
            received += server.takeReceived()
            guard received.count <= sent.count, received[...] == sent[..<received.count] else {
                fatalError("the handler passed up \(received.count) bytes that the client did not send in that order")
            }
        }
        server.finish()
        return true
    }
}
