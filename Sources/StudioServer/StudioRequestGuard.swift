import NIOCore
import NIOHTTP1

/// Between NIO's HTTP parser and the upgrade gate: a connection must deliver its first request head within
/// ``StudioConnectionLimits/headerTimeout`` (counted again from the end of a TLS handshake), so that a client that
/// connects and says nothing, or sends its head a byte at a time (slowloris), is cut; later heads are timed by
/// Hummingbird's idle timeout. A request the parser refuses (a NUL byte, a head over 80 KiB, a broken request line)
/// is answered `400 Bad Request` and the connection closed, instead of being left open with nothing said.
/// On a WebSocket upgrade head it leaves the pipeline (what follows are WebSocket frames, timed by the `hello` wait).
final class StudioRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let census: StudioConnectionCensus
    private var timer: Scheduled<Void>?
    private var sawHead = false
    /// Requests read whose responses have not ended: a 400 goes out only between responses.
    private var inFlight = 0
    private var refused = false

    init(census: StudioConnectionCensus) {
        self.census = census
        headerTimeout = StudioConnectionLimits.amount(census.limits.headerTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) { startTimer(context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func startTimer(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) { [self] in
            timer = nil
            guard !sawHead else { return }
            census.countTimedOut()
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is StudioTLSHandler.HandshakeCompleted {
            if !sawHead { startTimer(context) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if !sawHead {
            sawHead = true
            timer?.cancel()
            timer = nil
        }
        inFlight += 1
        context.fireChannelRead(data)
        if head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inFlight = max(0, inFlight - 1) }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !refused else { return }
        refused = true
        timer?.cancel()
        timer = nil
        guard inFlight == 0 else {
            context.close(promise: nil)
            return
        }
        let body = "400 Bad Request: \(Self.reason(error))\n"
        let headers = HTTPHeaders([("Connection", "close"), ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.utf8.count)")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// What was wrong, in a few words a client's developer can act on.
    static func reason(_ error: any Error) -> String {
        switch error as? HTTPParserError {
        case .headerOverflow: "the request head is over 80 KiB"
        case .invalidHeaderToken, .invalidConstant, .lfExpected, .invalidCharactersUsed: "a header is malformed"
        case .invalidURL: "the request target is malformed"
        case .invalidMethod: "unknown method"
        case .invalidVersion: "unknown HTTP version"
        default: "malformed request"
        }
    }
}
