import COpenSSLLoader
import NIOCore

/// TLS on one connection, through the system's OpenSSL: ciphertext read from the socket goes in and plaintext goes
/// up the pipeline; plaintext written by the HTTP handlers goes in and ciphertext goes to the socket. Everything runs
/// on the connection's event loop; OpenSSL works on memory only and never blocks.
///
/// Lifetime: the SSL object is freed only in `handlerRemoved`, never while a call into this handler is on the stack.
/// A write, a flush, a close or a read fired up the pipeline can close the channel synchronously (a write that fails
/// on a reset socket does), so after each of them the handler re-reads its ``state`` before it touches OpenSSL again.
final class StudioTLSHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Plaintext taken per read: one TLS record at most.
    static let readChunk = 16 * 1024
    /// Bytes of writes held back until the handshake ends. HTTP answers only after a request, which comes after the
    /// handshake, so this bounds a misbehaving handler, not a client.
    static let maximumEarlyWriteBytes = 1 << 20
    /// How long close_notify may take to be written before the socket closes anyway: a peer that does not read
    /// must not hold a connection (or the studio's shutdown) open.
    static let closeNotifyTimeout = TimeAmount.milliseconds(500)

    /// Fired up the pipeline once the handshake is done: the request timer starts the header timeout from there.
    struct HandshakeCompleted: Sendable {}

    private enum State: Equatable {
        /// Waiting for the peer's handshake.
        case handshaking
        /// Plaintext flows both ways.
        case open
        /// close_notify queued or an error met: nothing more is read or encrypted.
        case closing
        /// The channel went inactive: OpenSSL is not touched again (the object waits for `handlerRemoved`).
        case closed
    }

    private let tls: StudioTLSContext
    private let handshakeTimeout: TimeAmount
    private var connection: OpaquePointer?
    private var state = State.handshaking
    private var handshakeTimer: Scheduled<Void>?
    private var early: [(buffer: ByteBuffer, promise: EventLoopPromise<Void>?)] = []
    private var earlyBytes = 0
    private var earlyFlush = false

    /// - Parameter handshakeTimeout: a peer that has not finished its handshake this long after the connection
    ///   opened is cut (a half-open handshake holds a descriptor and OpenSSL's buffers).
    init(context: StudioTLSContext, handshakeTimeout: TimeAmount) {
        tls = context
        self.handshakeTimeout = handshakeTimeout
    }

    /// The SSL object to use now: nil once closing or closed.
    private var live: OpaquePointer? {
        switch state {
        case .handshaking, .open: connection
        case .closing, .closed: nil
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connection = pj_tls_connection_new(tls.pointer)
        guard connection != nil else {
            state = .closed
            context.close(promise: nil)
            return
        }
        let loop = context.eventLoop.assumeIsolated()
        handshakeTimer = loop.scheduleTask(in: handshakeTimeout) { [self] in
            handshakeTimer = nil
            guard case .handshaking = state else { return }
            state = .closing
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        state = .closed
        handshakeTimer?.cancel()
        handshakeTimer = nil
        failEarlyWrites(ChannelError.ioOnClosedChannel)
        if let connection { pj_tls_connection_free(connection) }
        connection = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closed
        handshakeTimer?.cancel()
        handshakeTimer = nil
        failEarlyWrites(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection = live else { return }
        let incoming = unwrapInboundIn(data)
        _ = incoming.withUnsafeReadableBytes { raw in
            raw.isEmpty ? 0 : pj_tls_feed(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        if case .handshaking = state {
            let result = pj_tls_handshake(connection)
            flushOutput(context: context)
            guard live != nil else { return }
            switch result {
            case Int32(PJ_TLS_OK):
                state = .open
                handshakeTimer?.cancel()
                handshakeTimer = nil
                context.fireUserInboundEventTriggered(HandshakeCompleted())
                guard live != nil else { return }
                writeEarly(context: context)
            case Int32(PJ_TLS_WANT_MORE):
                return
            default:
                fail(context: context)
                return
            }
        }
        readPlaintext(context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        switch state {
        case .closing, .closed:
            promise?.fail(ChannelError.ioOnClosedChannel)
        case .handshaking:
            earlyBytes += buffer.readableBytes
            guard earlyBytes <= Self.maximumEarlyWriteBytes else {
                promise?.fail(ChannelError.outputClosed)
                return
            }
            early.append((buffer, promise))
        case .open:
            encrypt(buffer, promise: promise, context: context)
        }
    }

    func flush(context: ChannelHandlerContext) {
        switch state {
        case .handshaking: earlyFlush = true
        case .open, .closing, .closed: context.flush()
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard case .open = state, let connection, mode != .input else {
            context.close(mode: mode, promise: promise)
            return
        }
        // close_notify first, so the browser knows the answer was whole; the socket closes once it is written,
        // or after closeNotifyTimeout if the peer does not read.
        state = .closing
        pj_tls_shutdown(connection)
        sendLastRecords(context: context, mode: mode, promise: promise)
    }

    /// Every record OpenSSL can decrypt now goes up the pipeline; close_notify or a protocol error ends the connection.
    private func readPlaintext(context: ChannelHandlerContext) {
        while let connection = live {
            var result = 0
            var plaintext = context.channel.allocator.buffer(capacity: Self.readChunk)
            plaintext.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readChunk) { raw in
                result = pj_tls_read(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count)
                return max(result, 0)
            }
            if result > 0 {
                context.fireChannelRead(wrapInboundOut(plaintext))
                continue
            }
            switch result {
            case Int(PJ_TLS_WANT_MORE):
                // Reading may have made records to send (TLS 1.3 session tickets, a key update's answer).
                flushOutput(context: context)
                return
            case Int(PJ_TLS_CLOSED):
                // The browser said goodbye: ours goes back (with anything OpenSSL queued, an alert included)
                // before the socket closes. Nothing is written between the read and this: the object is as it was.
                state = .closing
                pj_tls_shutdown(connection)
                sendLastRecords(context: context, mode: .all, promise: nil)
                return
            default:
                fail(context: context)
                return
            }
        }
    }

    private func encrypt(_ buffer: ByteBuffer, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        guard let connection = live else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let written = buffer.withUnsafeReadableBytes { raw in
            raw.isEmpty ? 0 : pj_tls_write(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        guard written >= 0 else {
            promise?.fail(ChannelError.outputClosed)
            fail(context: context)
            return
        }
        if let ciphertext = takeOutput(context: context) {
            context.write(wrapOutboundOut(ciphertext), promise: promise)
        } else {
            promise?.succeed(())
        }
    }

    private func writeEarly(context: ChannelHandlerContext) {
        let writes = early
        early = []
        earlyBytes = 0
        for (index, write) in writes.enumerated() {
            guard live != nil else {
                // A write closed the channel: the rest fail as writes on a closed channel do.
                for rest in writes[index...] { rest.promise?.fail(ChannelError.ioOnClosedChannel) }
                return
            }
            encrypt(write.buffer, promise: write.promise, context: context)
        }
        if earlyFlush || !writes.isEmpty {
            earlyFlush = false
            context.flush()
        }
    }

    private func failEarlyWrites(_ error: any Error) {
        let writes = early
        early = []
        earlyBytes = 0
        for write in writes { write.promise?.fail(error) }
    }

    /// The records waiting for the socket, written and flushed. The write may close the channel before it returns.
    private func flushOutput(context: ChannelHandlerContext) {
        guard let records = takeOutput(context: context) else { return }
        context.writeAndFlush(wrapOutboundOut(records), promise: nil)
    }

    /// What OpenSSL queued for the peer. Reads the object only while the channel is active.
    private func takeOutput(context: ChannelHandlerContext) -> ByteBuffer? {
        guard let connection, state != .closed else { return nil }
        let pending = pj_tls_pending_output(connection)
        guard pending > 0 else { return nil }
        var records = context.channel.allocator.buffer(capacity: pending)
        records.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            Int(pj_tls_take_output(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count))
        }
        return records
    }

    /// A protocol error: the alert OpenSSL queued goes out, then the socket closes.
    private func fail(context: ChannelHandlerContext) {
        guard live != nil else { return }
        state = .closing
        sendLastRecords(context: context, mode: .all, promise: nil)
    }

    /// The records OpenSSL queued last (an alert, close_notify) are written; the socket closes when they are, or
    /// after ``closeNotifyTimeout`` at the latest.
    private func sendLastRecords(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard let records = takeOutput(context: context) else {
            context.close(mode: mode, promise: promise)
            return
        }
        let loop = context.eventLoop.assumeIsolated()
        var closed = false
        let closeOnce = {
            guard !closed else { return }
            closed = true
            context.close(mode: mode, promise: promise)
        }
        let timer = loop.scheduleTask(in: Self.closeNotifyTimeout) { closeOnce() }
        context.writeAndFlush(wrapOutboundOut(records)).assumeIsolated().whenComplete { _ in
            timer.cancel()
            closeOnce()
        }
    }
}
