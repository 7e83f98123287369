import HummingbirdCore
import Logging
import NIOCore
import Studio

/// Refuses WebSocket upgrades that ``StudioSecurity`` does not allow with a real 401/403/421 before
/// Hummingbird's upgrader sees them (which answers every refused upgrade with 400). It reads the first
/// request head of a connection (only the first request of a connection can be upgraded: Hummingbird
/// redirects later ones to a new connection), and steps aside for anything that is not an upgrade.
final class StudioUpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// (Host, Origin, path with query, Cookie) → the decision.
    let decide: @Sendable (String?, String?, String, String?) -> StudioSecurity.Decision
    private var buffered: ByteBuffer?
    /// A head larger than this is not inspected (Hummingbird's own limits apply).
    static let maximumHead = 16 * 1024

    init(decide: @escaping @Sendable (String?, String?, String, String?) -> StudioSecurity.Decision) { self.decide = decide }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if buffered == nil {
            buffered = incoming
        } else {
            buffered!.writeBuffer(&incoming)
        }
        guard let buffer = buffered else { return }
        let view = buffer.readableBytesView
        guard let end = Self.headEnd(view) else {
            if buffer.readableBytes > Self.maximumHead { pass(context) }
            return
        }
        let head = String(decoding: view.prefix(end), as: UTF8.self)
        let decision = Self.decision(for: head, decide)
        switch decision {
        case .allow, .allowSettingCookie, nil: pass(context)
        case .badHost: refuse(context, "421 Misdirected Request")
        case .unauthorized: refuse(context, "401 Unauthorized")
        case .forbidden: refuse(context, "403 Forbidden")
        }
    }

    /// The decision for a WebSocket upgrade head; nil when the head is not one.
    static func decision(for head: String, _ decide: (String?, String?, String, String?) -> StudioSecurity.Decision) -> StudioSecurity.Decision? {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // A repeated Host or Origin is suspicious: keep the first (HTTP parsers would refuse it anyway).
            if headers[name] == nil { headers[name] = value }
        }
        guard headers["upgrade"]?.lowercased() == "websocket" else { return nil }
        return decide(headers["host"], headers["origin"], String(parts[1]), headers["cookie"])
    }

    static func headEnd(_ view: ByteBufferView) -> Int? {
        let bytes = Array(view.prefix(maximumHead + 4))
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func pass(_ context: ChannelHandlerContext) {
        if let buffer = buffered {
            buffered = nil
            context.fireChannelRead(wrapInboundOut(buffer))
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext, _ status: String) {
        buffered = nil
        let body = "\(status)\n"
        let text = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

/// Any Hummingbird child channel with a ``StudioUpgradeGate`` in front.
struct StudioGatedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let decide: @Sendable (String?, String?, String, String?) -> StudioSecurity.Decision

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let decide = self.decide
        let base = self.base
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(StudioUpgradeGate(decide: decide))
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
