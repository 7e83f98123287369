import HummingbirdCore
import Logging
import NIOCore

/// A child channel that puts ``StudioTLSHandler`` in front of `base` (the HTTP/1 and WebSocket channel).
struct StudioTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let tls: StudioTLSContext
    let handshakeTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let base = self.base
        let tls = self.tls
        let handshakeTimeout = self.handshakeTimeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(StudioTLSHandler(context: tls, handshakeTimeout: handshakeTimeout))
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
}
