import NIOCore
import StudioServer
import Testing

/// The server's own framing of binary messages (RFC 6455 §5.2), for a group written as one buffer: each message
/// whole (FIN), binary (opcode 2), unmasked, its length in the smallest of the three forms, in order.
@Suite("Studio WebSocket framing")
struct StudioWebSocketFramingTests {
    /// Splits `bytes` back into messages as a client reads them; nil when anything is malformed.
    func messages(_ bytes: [UInt8]) -> [[UInt8]]? {
        var out: [[UInt8]] = [], i = 0
        while i < bytes.count {
            guard i + 2 <= bytes.count, bytes[i] == 0x82, bytes[i + 1] & 0x80 == 0 else { return nil }
            var length = Int(bytes[i + 1]), at = i + 2
            if length == 126 {
                guard at + 2 <= bytes.count else { return nil }
                length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                guard length >= 126 else { return nil }
                at += 2
            } else if length == 127 {
                guard at + 8 <= bytes.count else { return nil }
                length = bytes[at ..< at + 8].reduce(0) { $0 << 8 | Int($1) }
                guard length > 0xFFFF else { return nil }
                at += 8
            }
            guard at + length <= bytes.count else { return nil }
            out.append(Array(bytes[at ..< at + length]))
            i = at + length
        }
        return out
    }

    @Test("each length form: the header bytes, the size, and the payload after", arguments: [0, 1, 125, 126, 1_037, 65_535, 65_536, 70_000])
    func oneMessage(payload: Int) {
        let data = (0..<payload).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var buffer = ByteBuffer()
        StudioWebSocketFraming.appendBinaryMessage(data, to: &buffer)
        let bytes = Array(buffer.readableBytesView)
        #expect(bytes.count == StudioWebSocketFraming.framedSize(payload))
        let header: [UInt8] = payload < 126 ? [0x82, UInt8(payload)]
            : payload <= 0xFFFF ? [0x82, 126, UInt8(payload >> 8), UInt8(payload & 0xFF)]
            : [0x82, 127, 0, 0, 0, 0, UInt8(payload >> 24), UInt8((payload >> 16) & 0xFF), UInt8((payload >> 8) & 0xFF), UInt8(payload & 0xFF)]
        #expect(Array(bytes.prefix(header.count)) == header)
        #expect(Array(bytes.dropFirst(header.count)) == data)
    }

    @Test("a group of PCM blocks and small frames in one buffer reads back as the same messages, in order")
    func group() throws {
        let group: [[UInt8]] = (0..<6).map { n in [0x10] + [UInt8](repeating: UInt8(n), count: 1_036) } + [[0x01, 9, 9], []]
        var buffer = ByteBuffer()
        for message in group { StudioWebSocketFraming.appendBinaryMessage(message, to: &buffer) }
        #expect(buffer.readableBytes == group.reduce(0) { $0 + StudioWebSocketFraming.framedSize($1.count) })
        #expect(messages(Array(buffer.readableBytesView)) == group)
    }
}
