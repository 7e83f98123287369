import NIOCore

/// A place in a WebSocket's pipeline just below NIO's frame encoder, from which ``StudioBinaryWriter`` writes a
/// group of binary messages already framed, as one buffer: the handlers nearer the socket (TLS, the socket
/// itself) see one write and the kernel one `write`, where each message passed through the encoder on its own
/// (two buffers each: its header and its data). It handles nothing itself; it only keeps its context.
/// Event loop only.
final class StudioWebSocketOutlet: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Writes `bytes` (whole WebSocket frames) toward the socket and flushes; false once the handler left the
    /// pipeline (the channel closed), when nothing is written (the socket is gone: its frames go nowhere).
    func writeAndFlush(_ bytes: ByteBuffer) -> Bool {
        guard let context else { return false }
        context.writeAndFlush(Self.wrapOutboundOut(bytes), promise: nil)
        return true
    }
}
