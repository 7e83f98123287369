import Foundation
import Glibc

/// A plain TCP client for the studio's tests (in-process servers and `prospero studio`): HTTP requests with any headers (a foreign Host, an Origin)
/// and a minimal RFC 6455 WebSocket client (masked client frames, unmasked server frames), so that the
/// tests see exactly what goes over the wire.
public final class RawClient: @unchecked Sendable {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A read waits as long as any outcome in the suite (a busy machine's server answers late, not never).
        var timeout = timeval(tv_sec: Int(Eventually.bound), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure("connect failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// How long a read waits for bytes before it gives up (``Eventually/bound`` from the start).
    public func setReadTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// A reader's pong and a sender's frame may be written from two threads; each frame goes out whole.
    private let writeLock = NSLock()

    public func write(_ bytes: [UInt8]) {
        writeLock.lock()
        defer { writeLock.unlock() }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Whether the last read from the socket gave up at its timeout (rather than getting bytes or the end of the stream).
    public private(set) var readTimedOut = false

    /// Reads more bytes; false at end of stream or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else {
            readTimedOut = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            return false
        }
        readTimedOut = false
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Bytes of `buffer` already taken (compacted once they pass half of it, so a busy reader does not
    /// shift the whole buffer for every small frame).
    private var taken = 0

    private func take(_ count: Int) -> [UInt8]? {
        while buffer.count - taken < count { if !fill() { return nil } }
        defer {
            taken += count
            if taken >= 32_768 && taken * 2 >= buffer.count { buffer.removeFirst(taken); taken = 0 }
        }
        return Array(buffer[taken..<(taken + count)])
    }

    public struct HTTPResponse {
        public var status: Int
        public var head: String
        public var body: String
        public func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }
    }

    /// Sends a request and reads the response head (and a Content-Length body).
    public func request(_ path: String, method: String = "GET", headers: [(String, String)]) throws -> HTTPResponse {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        text += "\r\n"
        write(Array(text.utf8))
        let end: [UInt8] = [13, 10, 13, 10]
        while true {
            if taken > 0 { buffer.removeFirst(taken); taken = 0 }
            if let range = findSubsequence(end) {
                let head = String(decoding: buffer[0..<range], as: UTF8.self)
                buffer.removeFirst(range + 4)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                var response = HTTPResponse(status: status, head: head, body: "")
                if let length = response.header("content-length").flatMap(Int.init), length > 0, let body = take(length) {
                    response.body = String(decoding: body, as: UTF8.self)
                }
                return response
            }
            if !fill() { throw Failure("no HTTP response") }
        }
    }

    private func findSubsequence(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where Array(buffer[i..<i + needle.count]) == needle { return i }
        return nil
    }

    /// The WebSocket upgrade request; the response's status (101 when upgraded).
    public func upgrade(host: String, origin: String?, path: String = "/ws", cookie: String? = nil) throws -> HTTPResponse {
        var headers = [("Host", host), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                       ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]
        if let origin { headers.append(("Origin", origin)) }
        if let cookie { headers.append(("Cookie", cookie)) }
        return try request(path, headers: headers)
    }

    /// Sends one masked frame (opcode 1 text, 2 binary, 0xA pong).
    public func sendFrame(_ payload: [UInt8], opcode: UInt8 = 1) {
        var frame: [UInt8] = [0x80 | opcode]
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame.append(0x80 | 126)
            frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        frame.append(contentsOf: mask)
        frame.append(contentsOf: payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        write(frame)
    }

    public func sendText(_ text: String) { sendFrame(Array(text.utf8)) }

    /// The next data frame (opcode, payload); nil on close or timeout. Pings are answered with a pong, as
    /// browsers do (the server pings every 30 s and closes a socket that did not answer the last one).
    public func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
        while true {
            guard let head = take(2) else { return nil }
            let opcode = head[0] & 0x0F
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let b = take(2) else { return nil }
                length = Int(b[0]) << 8 | Int(b[1])
            } else if length == 127 {
                guard let b = take(8) else { return nil }
                length = b.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = take(length) else { return nil }
            if opcode == 0x8 { return nil }
            if opcode == 0x9 {
                sendFrame(payload, opcode: 0xA)
                continue
            }
            if opcode == 0xA { continue }
            return (opcode, payload)
        }
    }

    /// The next JSON text message, skipping binary frames.
    public func readJSON() -> [String: Any]? {
        while let frame = readFrame() {
            guard frame.opcode == 1 else { continue }
            return (try? JSONSerialization.jsonObject(with: Data(frame.payload))) as? [String: Any]
        }
        return nil
    }

    /// JSON messages until one satisfies `match` (nil if none comes).
    public func readJSON(until match: ([String: Any]) -> Bool) -> [String: Any]? {
        while let m = readJSON() { if match(m) { return m } }
        return nil
    }
}
