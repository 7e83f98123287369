import COpenSSLLoader
import NIOCore

/// TLS on one connection, through the system's OpenSSL: ciphertext read from the socket goes in and plaintext goes
/// up the pipeline; plaintext written by the HTTP handlers goes in and ciphertext goes to the socket. Everything runs
/// on the connection's event loop; OpenSSL works on memory only and never blocks.
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

    private let tls: StudioTLSContext
    private var connection: OpaquePointer?
    private var handshaken = false
    private var closing = false
    private var early: [(buffer: ByteBuffer, promise: EventLoopPromise<Void>?)] = []
    private var earlyBytes = 0
    private var earlyFlush = false

    init(context: StudioTLSContext) { tls = context }

    func handlerAdded(context: ChannelHandlerContext) {
        connection = pj_tls_connection_new(tls.pointer)
        if connection == nil { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release(failing: ChannelError.ioOnClosedChannel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release(failing: ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection, !closing else { return }
        let incoming = unwrapInboundIn(data)
        _ = incoming.withUnsafeReadableBytes { raw in
            raw.isEmpty ? 0 : pj_tls_feed(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        if !handshaken {
            let result = pj_tls_handshake(connection)
            flushOutput(context: context)
            switch result {
            case Int32(PJ_TLS_OK):
                handshaken = true
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
        guard connection != nil, !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        guard handshaken else {
            earlyBytes += buffer.readableBytes
            guard earlyBytes <= Self.maximumEarlyWriteBytes else {
                promise?.fail(ChannelError.outputClosed)
                return
            }
            early.append((buffer, promise))
            return
        }
        encrypt(buffer, promise: promise, context: context)
    }

    func flush(context: ChannelHandlerContext) {
        guard handshaken else {
            earlyFlush = true
            return
        }
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, handshaken, !closing, let connection else {
            context.close(mode: mode, promise: promise)
            return
        }
        // close_notify first, so the browser knows the answer was whole; the socket closes once it is written.
        closing = true
        pj_tls_shutdown(connection)
        guard let notify = takeOutput(context: context) else {
            context.close(mode: mode, promise: promise)
            return
        }
        context.writeAndFlush(wrapOutboundOut(notify)).assumeIsolated().whenComplete { _ in context.close(mode: mode, promise: promise) }
    }

    /// Every record OpenSSL can decrypt now goes up the pipeline; close_notify or a protocol error ends the connection.
    private func readPlaintext(context: ChannelHandlerContext) {
        while let connection, !closing {
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
            // Reading may have made records to send (TLS 1.3 session tickets, a key update's answer).
            flushOutput(context: context)
            switch result {
            case Int(PJ_TLS_WANT_MORE):
                return
            case Int(PJ_TLS_CLOSED):
                // The browser said goodbye: ours goes back before the socket closes.
                closing = true
                pj_tls_shutdown(connection)
                fail(context: context)
                return
            default:
                fail(context: context)
                return
            }
        }
    }

    private func encrypt(_ buffer: ByteBuffer, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        guard let connection else {
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
        for write in writes { encrypt(write.buffer, promise: write.promise, context: context) }
        if earlyFlush || !writes.isEmpty {
            earlyFlush = false
            context.flush()
        }
    }

    /// The records waiting for the socket, written and flushed.
    private func flushOutput(context: ChannelHandlerContext) {
        guard let records = takeOutput(context: context) else { return }
        context.writeAndFlush(wrapOutboundOut(records), promise: nil)
    }

    private func takeOutput(context: ChannelHandlerContext) -> ByteBuffer? {
        guard let connection else { return nil }
        let pending = pj_tls_pending_output(connection)
        guard pending > 0 else { return nil }
        var records = context.channel.allocator.buffer(capacity: pending)
        records.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            Int(pj_tls_take_output(connection, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count))
        }
        return records
    }

    /// The records OpenSSL queued last (an alert after a protocol error, close_notify) go out, then the socket closes.
    private func fail(context: ChannelHandlerContext) {
        closing = true
        if let records = takeOutput(context: context) {
            context.writeAndFlush(wrapOutboundOut(records)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    private func release(failing error: any Error) {
        let writes = early
        early = []
        earlyBytes = 0
        for write in writes { write.promise?.fail(error) }
        if let connection { pj_tls_connection_free(connection) }
        connection = nil
    }
}
