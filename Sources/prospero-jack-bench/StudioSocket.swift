import Foundation
import Glibc

/// A page's WebSocket on a running `prospero studio`, as much of one as the bench needs: it upgrades, says
/// hello, selects an instrument and sets its controls as a page does, then stays open for the run.
/// RFC 6455 frames, masked from the client; the studio's pings are answered.
final class StudioSocket {
    private let descriptor: Int32
    private var received: [UInt8] = []

    /// Connects to the studio whose log (`output`) names its address, selects `instrument` and sets `sets`
    /// (control path, JSON value), each answered before the next.
    init(studioOutput output: String, selecting instrument: String, sets: [(String, String)]) throws {
        guard let r = output.range(of: "studio: http://127.0.0.1:"), let port = Int(output[r.upperBound...].prefix { $0.isNumber })
        else { throw BenchFailure("no studio address in its output: \(output)") }
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw BenchFailure("the studio at port \(port) refused the connection: errno \(errno)")
        }
        let origin = "http://127.0.0.1:\(port)"
        write(Array(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: \(origin)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        let head = try readHead()
        guard head.hasPrefix("HTTP/1.1 101") else { throw BenchFailure("the studio answered the upgrade with \(head.prefix(40))") }
        send(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
        _ = try next { $0["type"] as? String == "welcome" }
        send(#"{"type":"select","instrument":"\#(instrument)"}"#)
        _ = try next { $0["type"] as? String == "state" && $0["instrument"] as? String == instrument }
        for (path, value) in sets {
            send(#"{"type":"set","path":"\#(path)","value":\#(value)}"#)
            let answer = try next { $0["type"] as? String == "changed" || $0["type"] as? String == "error" }
            guard answer["type"] as? String == "changed" else { throw BenchFailure("the studio refused \(path) = \(value): \(answer)") }
        }
    }

    deinit { close(descriptor) }

    private func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// At least `count` bytes received, or false at the end of the stream or the read timeout.
    private func receive(atLeast count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while received.count < count {
            let n = recv(descriptor, &chunk, chunk.count, 0)
            guard n > 0 else { return false }
            received += chunk[0..<n]
        }
        return true
    }

    private func readHead() throws -> String {
        while true {
            if let end = String(decoding: received, as: UTF8.self).range(of: "\r\n\r\n") {
                let head = String(decoding: received, as: UTF8.self)[..<end.lowerBound]
                received.removeFirst(head.utf8.count + 4)
                return String(head)
            }
            guard receive(atLeast: received.count + 1) else { throw BenchFailure("no answer to the studio's upgrade") }
        }
    }

    /// One text frame, masked.
    private func send(_ text: String, opcode: UInt8 = 1) { send(Array(text.utf8), opcode: opcode) }

    private func send(_ payload: [UInt8], opcode: UInt8) {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + stride(from: 56, through: 0, by: -8).map { UInt8((payload.count >> $0) & 0xFF) }
        }
        let mask: [UInt8] = [0x5A, 0xC3, 0x0F, 0x96]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        write(frame)
    }

    /// The next JSON text message that satisfies `match` (pings answered, other frames passed over).
    private func next(_ match: ([String: Any]) -> Bool) throws -> [String: Any] {
        while true {
            guard receive(atLeast: 2) else { throw BenchFailure("the studio's socket closed or went quiet") }
            var length = Int(received[1] & 0x7F), header = 2
            if length == 126 {
                guard receive(atLeast: 4) else { throw BenchFailure("a frame cut short") }
                length = Int(received[2]) << 8 | Int(received[3])
                header = 4
            } else if length == 127 {
                guard receive(atLeast: 10) else { throw BenchFailure("a frame cut short") }
                length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            guard receive(atLeast: header + length) else { throw BenchFailure("a frame cut short") }
            let opcode = received[0] & 0x0F
            let payload = Array(received[header..<header + length])
            received.removeFirst(header + length)
            if opcode == 0x8 { throw BenchFailure("the studio closed the socket") }
            if opcode == 0x9 { send(payload, opcode: 0xA) }
            guard opcode == 1, let message = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] else { continue }
            if match(message) { return message }
        }
    }
}
