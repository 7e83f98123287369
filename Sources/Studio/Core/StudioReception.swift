import InstrumentSettings

/// The session's clients from socket to expiry: a socket connects, says `hello` and is welcomed (a new
/// client gets the active instrument's state and the last status; one resuming within its retention gets
/// the `state` messages it missed, or the whole state when it missed too many), its messages are admitted
/// through its rate limit, and when its socket closes its touches end and it is kept for
/// ``StudioSessionOptions/retention`` before it expires. Status pushes go out here too.
/// Every call runs under the session's lock (``StudioSessionState`` says why); it keeps no state of its own.
struct StudioReception {
    let options: StudioSessionOptions

    /// A socket opened; its connection number. Nothing is sent before its `hello`.
    func connect(_ outbox: @escaping StudioFanOut.Outbox, frames: StudioFanOut.FramesOutbox?, home: Int? = nil, peer: String? = nil,
                 in s: inout StudioSessionState) -> Int {
        s.clients.connect(outbox, frames: frames, home: home, peer: peer)
    }

    /// A message arrived on `connection` at `now` (monotonic seconds): counted, then let through its client's
    /// token bucket. False when refused (the client is told at most once a second). Checked before parsing
    /// errors, so that a flood of garbage costs the same as a flood of controls.
    func admit(_ connection: Int, now: Double, in s: inout StudioSessionState) -> Bool {
        s.statistics.received += 1
        guard case .refused(let notify) = s.clients.admit(connection, now: now) else { return true }
        s.statistics.rateLimited += 1
        notify?(.text(StudioServerMessage.error(.rateLimited).text))
        return false
    }

    /// A message that did not parse, or that the edge refused before parsing: counted and answered with `error`.
    func malformed(_ error: StudioError, from connection: Int, in s: inout StudioSessionState) {
        s.statistics.malformed += 1
        s.reply(.error(error), to: connection)
    }

    /// `hello` on `connection`: joins, resumes (with the replay) or resubscribes, or `too_many_clients`.
    func hello(_ requested: String?, _ subscriptions: Set<StudioSubscription>, connection: Int, in s: inout StudioSessionState) {
        switch s.clients.hello(requested, subscriptions, connection: connection) {
        case .full:
            s.reply(.error(StudioError(code: "too_many_clients", message: "the studio has \(options.maximumClients) clients", ref: "hello")),
                    to: connection)
        case .fullForPeer:
            s.reply(.error(StudioError(code: "too_many_clients",
                                       message: "this address has \(options.maximumClientsPerPeer) clients of the studio's \(options.maximumClients)",
                                       ref: "hello")),
                    to: connection)
        case .resubscribed(let id):
            welcome(id, resumed: true, connection: connection, in: s)
        case .resumed(let id, let replay):
            s.statistics.resumed += 1
            welcome(id, resumed: true, connection: connection, in: s)
            if let replay {
                for m in replay { s.clients.send(m, to: connection) }
            } else {
                sendState(to: connection, in: s)
            }
        case .joined(let id):
            welcome(id, resumed: false, connection: connection, in: s)
            if subscriptions.contains(.state) { sendState(to: connection, in: s) }
            if subscriptions.contains(.status), let status = s.lastStatus { s.clients.send(.text(status), to: connection) }
        }
    }

    private func welcome(_ id: String, resumed: Bool, connection: Int, in s: StudioSessionState) {
        s.reply(.welcome(client: id, instrument: s.stage.activeID, instruments: s.stage.instruments.map { ($0.id, $0.displayName) },
                         audio: s.audio, resumed: resumed, info: s.info),
                to: connection)
    }

    /// The active instrument's whole state (nothing when none is active).
    private func sendState(to connection: Int, in s: StudioSessionState) {
        guard let a = s.stage.active else { return }
        s.reply(s.stateMessage(of: a), to: connection)
    }

    /// A socket closed at `now`: its client's touches end on the active instrument (the changes broadcast),
    /// and the client is kept for its retention. `missedMessages`: the socket was cut with messages it never
    /// got, so a resume sends the whole state. The id of the client that left, nil when it had not said hello.
    func disconnect(_ connection: Int, now: Double, missedMessages: Bool, in s: inout StudioSessionState) -> String? {
        guard let left = s.clients.disconnect(connection, now: now, missedMessages: missedMessages) else { return nil }
        for (id, changes) in s.stage.clientLeft(left.id, touches: left.touches, now: now) {
            s.broadcast(changes: changes, of: id)
        }
        return left.id
    }

    /// Drops the clients whose retention ran out by `now`.
    func expire(now: Double, in s: inout StudioSessionState) {
        s.statistics.expired += s.clients.expire(now: now)
    }

    /// A `status` (audio, input sources as of `now`) to `status` subscribers when it differs from the last
    /// one sent. True when it was sent.
    func sendStatus(now: Double, in s: inout StudioSessionState) -> Bool {
        let message = StudioServerMessage.status(audio: s.audio, sources: s.sources.map { $0.json(now: now) })
        let text = message.text
        guard text != s.lastStatus else { return false }
        s.lastStatus = text
        s.clients.broadcast(message)
        return true
    }
}
