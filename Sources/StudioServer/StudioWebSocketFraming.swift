import NIOCore

/// Binary WebSocket messages framed by the server itself (RFC 6455 §5.2), for ``StudioBinaryWriter``'s groups:
/// several messages in one buffer, written below NIO's frame encoder. A server's frames are never masked; each
/// message here is whole (FIN set), so a reader sees exactly the messages the encoder would have produced.
public enum StudioWebSocketFraming {
    /// Bytes a binary message of `payload` bytes takes framed: 2 bytes of header up to 125 bytes of payload,
    /// 4 up to 65 535, 10 beyond.
    public static func framedSize(_ payload: Int) -> Int {
        payload + (payload < 126 ? 2 : payload <= 0xFFFF ? 4 : 10)
    }

    /// Appends `payload` as one whole binary message: FIN and the binary opcode (0x82), no mask, the length in 7
    /// bits, or 126 and 16 bits, or 127 and 64 bits (network order), then the payload.
    public static func appendBinaryMessage(_ payload: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(0x82))
        if payload.count < 126 {
            buffer.writeInteger(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(payload.count), endianness: .big)
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(payload.count), endianness: .big)
        }
        buffer.writeBytes(payload)
    }
}
