import HummingbirdCore
import Logging
import NIOCore

/// The first handler of every connection: lets it in through the ``StudioConnectionCensus`` (or closes it on
/// arrival), and cuts it when bytes wait to be written for ``StudioConnectionLimits/writeTimeout`` with none going
/// out: a peer that stops reading (a frozen tab, a hostile client with a closed window) cannot hold its socket and
/// the buffers queued for it. Its closes go straight to the socket, past TLS, so they never wait on the peer.
final class StudioConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let census: StudioConnectionCensus
    private let writeTimeout: TimeAmount
    private var ticket: Int?
    private var block: StudioAddressBlock?
    /// Bytes written and not yet out, and when bytes last went out (a write finished, or NIO's buffer drained
    /// below its low-water mark).
    private var unwritten = 0
    private var lastProgress = NIODeadline.now()
    private var stallCheck: Scheduled<Void>?

    init(census: StudioConnectionCensus) {
        self.census = census
        writeTimeout = StudioConnectionLimits.amount(census.limits.writeTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { enter(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if ticket == nil { enter(context) }
        context.fireChannelActive()
    }

    private func enter(_ context: ChannelHandlerContext) {
        guard ticket == nil else { return }
        block = context.channel.remoteAddress.flatMap(StudioAddressBlock.init)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        ticket = census.admit(block) { loop.execute { bound.value.close(promise: nil) } }
        if ticket == nil { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
    }

    private func leave() {
        stallCheck?.cancel()
        stallCheck = nil
        if let ticket { census.leave(ticket, block: block) }
        ticket = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let size = unwrapOutboundIn(data).readableBytes
        guard size > 0 else {
            context.write(data, promise: promise)
            return
        }
        if unwritten == 0 { lastProgress = .now() }
        unwritten += size
        let done = promise ?? context.eventLoop.makePromise()
        done.futureResult.assumeIsolated().whenComplete { [self] _ in
            unwritten -= size
            lastProgress = .now()
        }
        context.write(data, promise: done)
        if stallCheck == nil { scheduleStallCheck(context, at: lastProgress + writeTimeout) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { lastProgress = .now() }
        context.fireChannelWritabilityChanged()
    }

    private func scheduleStallCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        stallCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            stallCheck = nil
            guard unwritten > 0, ticket != nil else { return }
            let due = lastProgress + writeTimeout
            if due <= .now() {
                census.countStalled()
                context.close(promise: nil)
            } else {
                scheduleStallCheck(context, at: due)
            }
        }
    }
}

/// A child channel with a ``StudioConnectionGuard`` in front of `base` (everything else the connection has).
struct StudioGuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let census: StudioConnectionCensus

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let base = self.base
        let census = self.census
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(StudioConnectionGuard(census: census), position: .first)
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
