import HummingbirdCore
import Logging
import NIOCore

/// On the HTTPS port, a browser that asks over plain `http://` gets a plain-text answer saying to use
/// `https://` (instead of a connection closed in the middle of a failed TLS handshake, which a browser
/// shows as "the page sent an invalid response"). It looks at the first byte of a connection: a TLS
/// handshake record starts with 0x16 and goes on to TLS untouched; anything else is answered with 400 and
/// closed.
final class StudioPlainHTTPAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The first byte of a TLS handshake record.
    static let handshakeRecord: UInt8 = 0x16

    /// The answer: status line, headers and a body naming the https URL of the request's own Host.
    static func answer(host: String?) -> String {
        let target = host.map { "https://\($0)/" } ?? "https://"
        let body = "This port serves HTTPS: open \(target) (the studio was started with --tls).\n"
        return "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
    }

    private var buffered: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if buffered == nil { buffered = incoming } else { buffered!.writeBuffer(&incoming) }
        guard let buffer = buffered, let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        if first == Self.handshakeRecord {
            buffered = nil
            context.fireChannelRead(wrapInboundOut(buffer))
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        // Plain text: wait for the request head (bounded) to name the host in the answer.
        let view = buffer.readableBytesView
        let head = String(decoding: view.prefix(8 * 1024), as: UTF8.self)
        guard head.contains("\r\n\r\n") || buffer.readableBytes >= 8 * 1024 else { return }
        let host = head.split(separator: "\r\n").dropFirst().first { $0.lowercased().hasPrefix("host:") }
            .map { $0.dropFirst("host:".count).trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty || $0.contains(where: { !($0.isLetter || $0.isNumber || ".:-[]".contains($0)) }) ? nil : $0 }
        buffered = nil
        let reply = context.channel.allocator.buffer(string: Self.answer(host: host))
        context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in context.close(promise: nil) }
    }
}

/// A child channel that puts ``StudioPlainHTTPAnswer`` in front of `base` (the TLS channel).
struct StudioPlainHTTPAnswerChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let base = self.base
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(StudioPlainHTTPAnswer())
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
