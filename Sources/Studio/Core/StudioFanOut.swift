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
    private let subscribedClients = Atomic<Int>(0)

    public init() {}

    /// The session's new table (connected clients only, by subscription).
    func publish(_ table: [StudioSubscription: [Route]]) {
        routes.withLock { $0 = table }
        subscribedClients.store(Set(table.values.joined().map(\.client)).count, ordering: .relaxed)
    }

    /// True while some connected client is subscribed to any stream: someone sees what is rendered.
    /// Lock-free (an atomic load), so a render thread may ask every block.
    public var hasSubscribers: Bool { subscribedClients.load(ordering: .relaxed) > 0 }

    /// `bytes` as one binary frame to every connected client subscribed to `subscription`. Any thread.
    public func send(_ bytes: [UInt8], to subscription: StudioSubscription) {
        let targets = routes.withLock { $0[subscription] ?? [] }
        let frame = StudioOutgoing.binary(bytes)
        for target in targets { target.outbox(frame) }
    }

    /// `text` as one text message to every connected client subscribed to `subscription`. Any thread.
    public func send(text: String, to subscription: StudioSubscription) {
        let targets = routes.withLock { $0[subscription] ?? [] }
        let message = StudioOutgoing.text(text)
        for target in targets { target.outbox(message) }
    }

    /// True when some connected client is subscribed to `subscription` (a short lock, no copy).
    public func hasSubscribers(to subscription: StudioSubscription) -> Bool {
        routes.withLock { !($0[subscription]?.isEmpty ?? true) }
    }

    /// Connected clients subscribed to `subscription`, by id.
    public func subscribers(of subscription: StudioSubscription) -> [String] {
        routes.withLock { ($0[subscription] ?? []).map(\.client) }.sorted()
    }
}
