import Synchronization

/// Binary frames (meters, scope, spectrum, browser-audio PCM at ~190 a second) to the connected clients
/// subscribed to their stream, without the session's lock: the session publishes who listens to what
/// whenever a client connects, subscribes or leaves, and a sender reads that table under its own short
/// lock (an array copy) and writes to the outboxes after. Instruments are never touched here.
public final class StudioFanOut: Sendable {
    public typealias Outbox = @Sendable (StudioOutgoing) -> Void
    /// Several binary frames at once, in order (a socket that writes them in one go: ``send(frames:to:)``).
    public typealias FramesOutbox = @Sendable ([[UInt8]]) -> Void

    struct Route: Sendable {
        var client: String
        var outbox: Outbox
        var frames: FramesOutbox? = nil
        /// Where the client's socket is written from (``StudioSession/connect(outbox:frames:home:)``), if the edge said.
        var home: Int? = nil
    }

    private let routes = Mutex<[StudioSubscription: [Route]]>([:])
    private let subscribedClients = Atomic<Int>(0)
    private let audioHome = Atomic<Int>(-1)

    public init() {}

    /// The session's new table (connected clients only, by subscription).
    func publish(_ table: [StudioSubscription: [Route]]) {
        routes.withLock { $0 = table }
        subscribedClients.store(Set(table.values.joined().map(\.client)).count, ordering: .relaxed)
        audioHome.store(Self.commonestHome(table[.audio] ?? []) ?? -1, ordering: .relaxed)
    }

    /// The home most of `routes` share (the lowest on a tie, so that the choice is stable); nil when none has one.
    static func commonestHome(_ routes: [Route]) -> Int? {
        var counts: [Int: Int] = [:]
        for home in routes.compactMap(\.home) { counts[home, default: 0] += 1 }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// The home (``StudioSession/connect(outbox:frames:home:)``: the edge's number for where a socket is written
    /// from, an event loop) that most clients subscribed to `audio` share; nil when no listener has one. A sender
    /// that runs there reaches those sockets without handing the frames to another thread. Lock-free (an atomic
    /// load): a render thread may ask every group of blocks.
    public var listenersHome: Int? {
        let home = audioHome.load(ordering: .relaxed)
        return home >= 0 ? home : nil
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

    /// `frames` (each one binary message, in order) to every connected client subscribed to `subscription`: in one
    /// hand-over to a client whose connection takes several at once, else one by one. Any thread.
    public func send(frames: [[UInt8]], to subscription: StudioSubscription) {
        guard !frames.isEmpty else { return }
        let targets = routes.withLock { $0[subscription] ?? [] }
        for target in targets {
            if let batch = target.frames {
                batch(frames)
            } else {
                for bytes in frames { target.outbox(.binary(bytes)) }
            }
        }
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
