import NIOCore
import NIOEmbedded
import NIOWebSocket
import Studio

/// The studio's WebSocket frame reader as the server configures it: swift-nio's `WebSocketFrameDecoder`
/// with the studio's frame limit (``StudioWebSocketLimits/frameBytes``), fed arbitrary bytes as one
/// socket would deliver them; every text frame it yields goes on to the session's message parser.
enum WebSocketFrameFuzz {
    /// True when at least one frame was read. A frame over the limit, a bad opcode or reserved bits end
    /// the stream with the decoder's error (the server then closes the socket); nothing may trap, and no
    /// frame larger than the limit may come out.
    static func run(_ bytes: [UInt8]) -> Bool {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        let decoder = ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: StudioWebSocketLimits.frameBytes))
        guard (try? channel.pipeline.syncOperations.addHandler(decoder)) != nil else { return false }
        // Delivered in two reads, as TCP may split it: the decoder must keep a frame's partial header.
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        for part in [bytes[..<split], bytes[split...]] where !part.isEmpty {
            guard (try? channel.writeInbound(channel.allocator.buffer(bytes: part))) != nil else { break }
        }
        var frames = 0
        while let frame = try? channel.readInbound(as: WebSocketFrame.self) {
            frames += 1
            guard frame.length <= StudioWebSocketLimits.frameBytes else {
                fatalError("a \(frame.length)-byte frame passed the \(StudioWebSocketLimits.frameBytes)-byte limit")
            }
            var payload = frame.unmaskedData
            if frame.opcode == .text, let text = payload.readBytes(length: payload.readableBytes) {
                _ = try? StudioClientMessage.parse(text)
            }
        }
        return frames > 0
    }
}
