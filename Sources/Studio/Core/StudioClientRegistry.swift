/// The session's clients and their replay: connections and their outboxes, each client's id,
/// subscriptions, rate limit and touches, and — for ``StudioSessionOptions/retention`` after its socket
/// is lost — the `state` messages it missed. It sends text (replies, broadcasts) and publishes who
/// listens to which binary stream to the ``StudioFanOut``; it knows nothing of instruments.
/// A value inside the session's lock.
struct StudioClientRegistry {
    typealias Outbox = StudioFanOut.Outbox

    struct Client {
        var id: String
        var connection: Int?
        var outbox: Outbox?
        var subscriptions: Set<StudioSubscription>
        var limiter: StudioRateLimiter
        var touches: Set<Int> = []
        var pending: [StudioOutgoing] = []
        var pendingOverflow = false
        var detachedAt: Double?
        var lastRateError = -Double.infinity
    }

    let options: StudioSessionOptions
    let fanOut: StudioFanOut
    private(set) var clients: [String: Client] = [:]
    /// Connection → client id (after hello).
    private var connections: [Int: String] = [:]
    private var outboxes: [Int: Outbox] = [:]
    /// Connections that take several binary frames at once (``StudioFanOut/send(frames:to:)``).
    private var frameOutboxes: [Int: StudioFanOut.FramesOutbox] = [:]
    /// Where each connection's socket is written from (``StudioFanOut/listenersHome``), when the edge said.
    private var homes: [Int: Int] = [:]
    /// Each connection's peer as the edge counts it (an address block), when the edge said.
    private var peers: [Int: String] = [:]
    /// The rate limit of a connection that has not said hello yet (it has no client's bucket to spend).
    private var strangers: [Int: Stranger] = [:]

    struct Stranger {
        var limiter: StudioRateLimiter
        var lastRateError = -Double.infinity
    }
    private var nextConnection = 1
    private var nextClient = 1

    init(options: StudioSessionOptions, fanOut: StudioFanOut) {
        self.options = options
        self.fanOut = fanOut
    }

    // MARK: Connections

    mutating func connect(_ outbox: @escaping Outbox, frames: StudioFanOut.FramesOutbox? = nil, home: Int? = nil, peer: String? = nil) -> Int {
        let c = nextConnection
        nextConnection += 1
        outboxes[c] = outbox
        frameOutboxes[c] = frames
        homes[c] = home
        peers[c] = peer
        strangers[c] = Stranger(limiter: StudioRateLimiter(rate: options.rate, burst: options.burst))
        return c
    }

    /// The client on `connection` (after its hello).
    func client(on connection: Int) -> String? { connections[connection] }

    /// A socket closed: its client (if it said hello on it) is detached and kept for its retention; returns
    /// that client's id and the touch slots it held down (the caller cancels them).
    mutating func disconnect(_ connection: Int, now: Double, missedMessages: Bool) -> (id: String, touches: Set<Int>)? {
        outboxes[connection] = nil
        frameOutboxes[connection] = nil
        homes[connection] = nil
        peers[connection] = nil
        strangers[connection] = nil
        guard let id = connections.removeValue(forKey: connection), var client = clients[id], client.connection == connection else {
            return nil
        }
        let touches = client.touches
        client.touches.removeAll()
        client.connection = nil
        client.outbox = nil
        client.detachedAt = now
        if missedMessages { client.pendingOverflow = true }
        clients[id] = client
        publishRoutes()
        return (id, touches)
    }

    /// Drops clients whose retention ran out; how many.
    mutating func expire(now: Double) -> Int {
        let gone = clients.filter { $0.value.detachedAt.map { now - $0 >= options.retention } ?? false }.map(\.key)
        for id in gone { clients[id] = nil }
        return gone.count
    }

    // MARK: Rate and touches

    enum Admission { case allowed, refused(notify: Outbox?) }

    /// The per-client token bucket for a message arriving on `connection`; a socket before its hello spends a bucket
    /// of its own, so that a flood before hello is limited like one after it.
    mutating func admit(_ connection: Int, now: Double) -> Admission {
        guard let id = connections[connection], var client = clients[id] else {
            guard var stranger = strangers[connection] else { return .allowed }
            defer { strangers[connection] = stranger }
            if stranger.limiter.allow(at: now) { return .allowed }
            guard now - stranger.lastRateError >= 1 else { return .refused(notify: nil) }
            stranger.lastRateError = now
            return .refused(notify: outboxes[connection])
        }
        defer { clients[id] = client }
        if client.limiter.allow(at: now) { return .allowed }
        guard now - client.lastRateError >= 1 else { return .refused(notify: nil) }
        client.lastRateError = now
        return .refused(notify: client.outbox)
    }

    mutating func touch(_ slot: Int, down: Bool, client id: String) {
        if down { clients[id]?.touches.insert(slot) } else { clients[id]?.touches.remove(slot) }
    }

    /// Every client's touches are forgotten (the instrument changed or the studio stops).
    mutating func forgetTouches() {
        for id in clients.keys { clients[id]?.touches.removeAll() }
    }

    // MARK: Hello, resume and replay

    enum Hello {
        /// A second hello on the same socket: new subscriptions.
        case resubscribed(String)
        /// The same id within its retention; `replay` nil when it missed too much (send the whole state).
        case resumed(String, replay: [StudioOutgoing]?)
        case joined(String)
        /// The studio holds ``StudioSessionOptions/maximumClients`` connected clients.
        case full
        /// The connection's peer holds ``StudioSessionOptions/maximumClientsPerPeer`` connected clients.
        case fullForPeer
    }

    mutating func hello(_ requested: String?, _ subscriptions: Set<StudioSubscription>, connection: Int) -> Hello {
        defer { publishRoutes() }
        if let old = connections[connection], clients[old] != nil {
            clients[old]?.subscriptions = subscriptions
            return .resubscribed(old)
        }
        let outbox = outboxes[connection]
        if let requested, var client = clients[requested] {
            strangers[connection] = nil
            // A second socket takes the id over.
            if let previous = client.connection, previous != connection { connections[previous] = nil }
            client.connection = connection
            client.outbox = outbox
            client.subscriptions = subscriptions
            client.detachedAt = nil
            let replay = client.pendingOverflow ? nil : client.pending
            client.pending.removeAll()
            client.pendingOverflow = false
            clients[requested] = client
            connections[connection] = requested
            return .resumed(requested, replay: replay)
        }
        if let peer = peers[connection] {
            let held = clients.values.count { client in client.connection.map { peers[$0] == peer } ?? false }
            guard held < options.maximumClientsPerPeer else { return .fullForPeer }
        }
        if clients.count >= options.maximumClients {
            // A retained client gives its place to a new one (the oldest to leave goes first): a peer that said hello
            // and left many times cannot keep others out for the retention.
            guard let oldest = clients.values.filter({ $0.detachedAt != nil }).min(by: { $0.detachedAt! < $1.detachedAt! }) else {
                return .full
            }
            clients[oldest.id] = nil
        }
        strangers[connection] = nil
        let id = "c\(nextClient)-\(StudioToken.random().prefix(8))"
        nextClient += 1
        clients[id] = Client(id: id, connection: connection, outbox: outbox, subscriptions: subscriptions,
                             limiter: StudioRateLimiter(rate: options.rate, burst: options.burst))
        connections[connection] = id
        return .joined(id)
    }

    func subscribes(_ id: String, to subscription: StudioSubscription) -> Bool {
        clients[id]?.subscriptions.contains(subscription) ?? false
    }

    // MARK: Sending text

    func send(_ message: StudioOutgoing, to connection: Int) { outboxes[connection]?(message) }

    /// To client `id` on its socket (nothing while it has none, and nothing kept for its replay).
    func send(_ message: StudioOutgoing, toClient id: String) {
        if let connection = clients[id]?.connection { send(message, to: connection) }
    }

    /// To every client subscribed; a retained (disconnected) client keeps `state` messages for its replay.
    mutating func broadcast(_ message: StudioServerMessage) {
        let text = StudioOutgoing.text(message.text)
        let subscription = message.subscription
        for (id, client) in clients {
            if let subscription, !client.subscriptions.contains(subscription) { continue }
            if let outbox = client.outbox {
                outbox(text)
            } else if subscription == .state {
                if client.pending.count < options.maximumPending {
                    clients[id]?.pending.append(text)
                } else {
                    clients[id]?.pendingOverflow = true
                }
            }
        }
    }

    /// Connected clients.
    var connectedCount: Int { clients.values.filter { $0.connection != nil }.count }

    /// Who listens to which stream, for the senders of binary frames.
    private func publishRoutes() {
        var table: [StudioSubscription: [StudioFanOut.Route]] = [:]
        for client in clients.values {
            guard let outbox = client.outbox else { continue }
            let frames = client.connection.flatMap { frameOutboxes[$0] }
            let home = client.connection.flatMap { homes[$0] }
            for s in client.subscriptions {
                table[s, default: []].append(.init(client: client.id, outbox: outbox, frames: frames, home: home))
            }
        }
        fanOut.publish(table)
    }
}
