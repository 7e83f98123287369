import Synchronization

/// Binary frames (meters, scope, spectrum, browser-audio PCM at ~190 a second) to the connected clients
/// subscribed to their stream, without the session's lock: the session publishes who listens to what
/// whenever a client connects, subscribes or leaves, and a sender reads that table under its own short
/// lock (an array copy) and writes to the outboxes after. Instruments are never touched here.
public final class StudioFanOut: Sendable {
    public typealias Outbox = @Sendable (StudioOutgoing) -> Void

    struct Route: Sendable {
        var client: String
        var outbox: Outbox
    }

    private let routes = Mutex<[StudioSubscription: [Route]]>([:])

    public init() {}

    /// The session's new table (connected clients only, by subscription).
    func publish(_ table: [StudioSubscription: [Route]]) { routes.withLock { $0 = table } }

    /// `bytes` as one binary frame to every connected client subscribed to `subscription`. Any thread.
    public func send(_ bytes: [UInt8], to subscription: StudioSubscription) {
        let targets = routes.withLock { $0[subscription] ?? [] }
        let frame = StudioOutgoing.binary(bytes)
        for target in targets { target.outbox(frame) }
    }

    /// Connected clients subscribed to `subscription`, by id.
    public func subscribers(of subscription: StudioSubscription) -> [String] {
        routes.withLock { ($0[subscription] ?? []).map(\.client) }.sorted()
    }
}
