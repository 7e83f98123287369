import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import Studio

/// Decides WebSocket upgrades with ``StudioAccess`` on the request head NIO's HTTP parser produced,
/// just before Hummingbird's upgrader sees it, and answers a refusal with its real status
/// (401/403/421/429; the upgrader itself answers every refused upgrade with 400). Only the first request
/// of a connection can be upgraded (Hummingbird redirects later ones to a new connection), so the gate
/// leaves the pipeline after the first head; a head that is not an upgrade passes to the router, whose
/// ``StudioAccessMiddleware`` decides it.
final class StudioUpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let access: StudioAccess
    /// The refused request's remaining parts are dropped until the connection closes.
    private var refusing = false

    init(access: StudioAccess) { self.access = access }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guard head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) else {
            pass(data, context)
            return
        }
        let cookies = head.headers["cookie"]
        let decision = access.decide(
            .upgrade, host: head.headers.first(name: "host"), origin: head.headers.first(name: "origin"), target: head.uri,
            cookie: cookies.isEmpty ? nil : cookies.joined(separator: "; "), address: context.channel.remoteAddress.flatMap(StudioAddressBlock.init))
        switch decision {
        case .allow, .allowSettingCookie: pass(data, context)
        case .badHost, .unauthorized, .forbidden, .tooManyGuesses: refuse(context, status: .init(statusCode: decision.status))
        }
    }

    private func pass(_ data: NIOAny, _ context: ChannelHandlerContext) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponseStatus) {
        refusing = true
        let body = "\(status.code) \(status.reasonPhrase)\n"
        var headers = HTTPHeaders([("Connection", "close"), ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.utf8.count)")])
        if status.code == 429 { headers.add(name: "Retry-After", value: "60") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        // The refusal is written; then the connection goes (on this loop: the future completes on it).
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 + WebSocket child channel with a ``StudioRequestGuard`` and a ``StudioUpgradeGate``
/// placed between NIO's HTTP decoder and the upgrade handler.
struct StudioGatedChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let access: StudioAccess
    let census: StudioConnectionCensus

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let access = self.access
        let census = self.census
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let upgrader = try operations.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            let gate = StudioUpgradeGate(access: access)
            try operations.addHandler(gate, position: .before(upgrader))
            try operations.addHandler(StudioRequestGuard(census: census), position: .before(gate))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
