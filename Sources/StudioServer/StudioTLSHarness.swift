import NIOCore
import NIOEmbedded

/// One ``StudioTLSHandler`` in an embedded channel, driven step by step: the tests and the `tlsConnection` fuzz
/// target replay handshakes, renegotiations, alerts, close_notify and resets against the very handler the studio runs,
/// on simulated time. A socket stand-in in front of it can be made to fail its writes and close the channel in the
/// middle of a flush, as NIO does when a write meets a reset socket: the reentrant close that once freed the SSL
/// object under the handler's feet.
public final class StudioTLSHarness {
    private let loop = EmbeddedEventLoop()
    private let channel: EmbeddedChannel
    private let socket = Socket()
    private let received = Received()

    /// - Parameters:
    ///   - certificate, key: PEM files for the server's context.
    ///   - handshakeTimeout: as ``StudioConnectionLimits/handshakeTimeout``.
    public init(certificate: String, key: String, handshakeTimeout: TimeAmount = .seconds(10)) throws {
        let tls = try StudioTLSContext(certificate: certificate, key: key)
        channel = EmbeddedChannel(loop: loop)
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(socket)
        try operations.addHandler(StudioTLSHandler(context: tls, handshakeTimeout: handshakeTimeout))
        try operations.addHandler(received)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
    }

    deinit { _ = try? channel.finish(acceptAlreadyClosed: true) }

    /// Ciphertext from the peer, as one read from the socket.
    public func deliver(_ bytes: [UInt8]) {
        guard isOpen else { return }
        var buffer = channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        // A record the handler refuses closes the channel; what it passed up is read with `readInbound()`.
        _ = try? channel.writeInbound(buffer)
        loop.run()
    }

    /// From now on every write fails and the next flush closes the channel from inside it (a reset socket).
    public func resetSocket() { socket.mode = .resetting }

    /// From now on nothing written goes out (a peer that stopped reading, its window closed): writes wait.
    public func stallSocket() { socket.mode = .stalled }

    /// The peer closed its side without close_notify (TCP FIN).
    public func peerHalfClose() {
        guard isOpen else { return }
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        loop.run()
    }

    /// The application writes `bytes` (an HTTP answer) and flushes.
    public func serverWrite(_ bytes: [UInt8]) {
        guard isOpen else { return }
        var buffer = channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(bytes)
        channel.writeAndFlush(buffer, promise: nil)
        loop.run()
    }

    /// The application closes the connection (close_notify, then the socket).
    public func serverClose() {
        guard isOpen else { return }
        channel.close(promise: nil)
        loop.run()
    }

    /// Simulated time passes (the handshake and close_notify timers run).
    public func advance(milliseconds: Int64) { loop.advanceTime(by: .milliseconds(milliseconds)) }

    public var isOpen: Bool { channel.isActive }

    /// The ciphertext the handler wrote to the socket since the last call.
    public func takeWritten() -> [UInt8] {
        var out: [UInt8] = []
        while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { out += buffer.readableBytesView }
        return out
    }

    /// The plaintext the handler passed up since the last call.
    public func takeReceived() -> [UInt8] {
        defer { received.bytes.removeAll() }
        return received.bytes
    }

    /// The handlers leave the pipeline (the SSL object is freed) and the channel closes.
    public func finish() {
        _ = try? channel.finish(acceptAlreadyClosed: true)
        loop.run()
    }

    /// The socket's stand-in: passes writes on; once resetting, fails them and closes inside the flush; once
    /// stalled, holds them until the channel closes.
    final class Socket: ChannelOutboundHandler {
        typealias OutboundIn = ByteBuffer
        enum Mode { case open, resetting, stalled }
        var mode = Mode.open
        private var held: [EventLoopPromise<Void>] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard mode == .open else {
                if let promise { held.append(promise) }
                return
            }
            context.write(data, promise: promise)
        }

        func flush(context: ChannelHandlerContext) {
            switch mode {
            case .open: context.flush()
            case .stalled: break
            case .resetting:
                failHeld()
                context.close(promise: nil)
            }
        }

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            failHeld()
            context.close(mode: mode, promise: promise)
        }

        private func failHeld() {
            let promises = held
            held = []
            for promise in promises { promise.fail(ChannelError.ioOnClosedChannel) }
        }
    }

    /// The application's end: keeps what the handler passed up.
    final class Received: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var bytes: [UInt8] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
        }
    }
}
