import Ariel
import Enobarbus
import Synchronization

/// The studio's control centre, independent of any socket: the instruments (made once at start),
/// which one is active (shared by every client), the clients with their subscriptions, rate limits,
/// touches and — for 60 s after their socket is lost — their missed messages. The server feeds it the
/// text frames it receives and gives each connection an outbox; everything else happens here, under
/// one lock, so that instruments see one call at a time.
///
/// Every client sees every change: a `set` that an instrument accepts is broadcast as `changed` to
/// every client subscribed to `state` (the sender too: that is its acknowledgement).
public final class StudioSession: @unchecked Sendable {
    public typealias Outbox = @Sendable (StudioOutgoing) -> Void

    public let options: StudioSessionOptions
    private let state: StudioLocked<State>
    /// Called (outside the lock) with the new active instrument's index when a `select` changes it;
    /// the audio driver switches engines on it.
    public let onSelect: Mutex<(@Sendable (Int) -> Void)?> = Mutex(nil)
    /// Called (under the session's lock: keep it short) with a listening page's browser-audio report,
    /// its client id and the time; the browser-audio driver steers its render rate on it.
    public let onAudioReport: Mutex<(@Sendable (StudioAudioReport, String, Double) -> Void)?> = Mutex(nil)

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

    struct State {
        var instruments: [any StudioInstrument]
        var active: Int?
        var clients: [String: Client] = [:]
        /// Connection → client id (after hello).
        var connections: [Int: String] = [:]
        var outboxes: [Int: Outbox] = [:]
        var nextConnection = 1
        var nextClient = 1
        var statistics = StudioSessionStatistics()
        var audio = StudioAudioStatus(backend: .none)
        var sources: [StudioInputSource] = []
        var info: [String: StudioValue] = [:]
        /// MIDI learn and the learned controllers (settings-learn).
        var learn = MIDIControlLearn()
    }

    /// - Parameters:
    ///   - instruments: made by the caller from a ``StudioInstrumentRegistry`` (Home's order).
    ///   - active: index of the instrument active at start (default the first, nil when there is none).
    public init(instruments: [any StudioInstrument], active: Int? = 0, options: StudioSessionOptions = .init()) {
        self.options = options
        let a = active.flatMap { instruments.indices.contains($0) ? $0 : nil }
        state = StudioLocked(State(instruments: instruments, active: a))
    }

    /// Makes every registered instrument.
    public convenience init(registry: StudioInstrumentRegistry, options: StudioSessionOptions = .init()) throws {
        try self.init(instruments: registry.entries.map { try $0.make() }, options: options)
    }

    // MARK: Reading

    public var statistics: StudioSessionStatistics { state.withLock { $0.statistics } }
    public var activeIndex: Int? { state.withLock { $0.active } }
    public var activeID: String? { state.withLock { s in s.active.map { s.instruments[$0].id } } }
    public var instrumentList: [(id: String, name: String)] {
        state.withLock { $0.instruments.map { ($0.id, $0.displayName) } }
    }
    public var audioEngines: [any StudioAudioEngine] { state.withLock { $0.instruments.map(\.audio) } }
    /// Clients connected now.
    public var connectedClientCount: Int { state.withLock { $0.clients.values.filter { $0.connection != nil }.count } }
    /// Connected clients subscribed to browser audio (`audio`), by id.
    public var audioListeners: [String] {
        state.withLock { $0.clients.values.filter { $0.connection != nil && $0.subscriptions.contains(.audio) }.map(\.id).sorted() }
    }
    /// Clients connected or within their retention time.
    public var clientCount: Int { state.withLock { $0.clients.count } }
    public var audioStatus: StudioAudioStatus {
        get { state.withLock { $0.audio } }
        set { state.withLock { $0.audio = newValue } }
    }
    /// What `welcome` tells pages about this studio: `osc` ("udp 127.0.0.1:9000"), `urls` (how to reach it).
    public var info: [String: StudioValue] {
        get { state.withLock { $0.info } }
        set { state.withLock { $0.info = newValue } }
    }
    public var sources: [StudioInputSource] {
        get { state.withLock { $0.sources } }
        set { state.withLock { $0.sources = newValue } }
    }

    /// Runs `body` on the instrument with `id` under the session's lock (for tests and the edge).
    public func withInstrument<R>(_ id: String, _ body: (any StudioInstrument) throws -> R) rethrows -> R? {
        try state.withLock { s in
            guard let i = s.instruments.firstIndex(where: { $0.id == id }) else { return nil }
            return try body(s.instruments[i])
        }
    }

    // MARK: Connections

    /// A socket opened; returns its connection number. Nothing is sent before the client's `hello`.
    public func connect(outbox: @escaping Outbox) -> Int {
        state.withLock { s in
            let c = s.nextConnection
            s.nextConnection += 1
            s.outboxes[c] = outbox
            return c
        }
    }

    /// A socket closed: the client's touches end now; its state is kept for ``StudioSessionOptions/retention``.
    /// `missedMessages`: the socket was cut with messages it never got, so a resume sends the whole state.
    public func disconnect(_ connection: Int, now: Double, missedMessages: Bool = false) {
        state.withLock { s in
            s.outboxes[connection] = nil
            guard let id = s.connections.removeValue(forKey: connection), var client = s.clients[id], client.connection == connection
            else { return }
            endTouches(of: &client, in: &s, now: now)
            if let a = s.active {
                let changes = s.instruments[a].clientLeft(id, at: now)
                if !changes.isEmpty { broadcast(.changed(instrument: s.instruments[a].id, changes: changes), in: &s) }
            }
            client.connection = nil
            client.outbox = nil
            client.detachedAt = now
            if missedMessages { client.pendingOverflow = true }
            s.clients[id] = client
        }
    }

    private func endTouches(of client: inout Client, in s: inout State, now: Double) {
        guard let a = s.active else {
            client.touches.removeAll()
            return
        }
        for slot in client.touches.sorted() {
            let changes = try? s.instruments[a].touch(StudioTouch(id: slot, phase: .cancel, x: 0, y: 0, pressure: 0), client: client.id)
            if let changes, !changes.isEmpty {
                broadcast(.changed(instrument: s.instruments[a].id, changes: changes), in: &s)
            }
        }
        client.touches.removeAll()
    }

    // MARK: Messages

    /// One text frame from `connection` at `now` (monotonic seconds): parsed with limits, rate-limited
    /// and dispatched; every error is answered with an `error` message and counted, never thrown.
    public func receive(_ bytes: some Collection<UInt8>, from connection: Int, now: Double) {
        let parsed: Result<StudioClientMessage, StudioError>
        do throws(StudioError) { parsed = .success(try StudioClientMessage.parse(bytes, limits: options.parser)) } catch {
            parsed = .failure(error)
        }
        state.withLock { s in
            s.statistics.received += 1
            // Rate limit first: a flood of garbage costs the same as a flood of controls.
            if let id = s.connections[connection], var client = s.clients[id] {
                if !client.limiter.allow(at: now) {
                    s.statistics.rateLimited += 1
                    if now - client.lastRateError >= 1 {
                        client.lastRateError = now
                        client.outbox?(.text(StudioServerMessage.error(.rateLimited).text))
                    }
                    s.clients[id] = client
                    return
                }
                s.clients[id] = client
            }
            switch parsed {
            case .failure(let error):
                s.statistics.malformed += 1
                s.outboxes[connection]?(.text(StudioServerMessage.error(error).text))
            case .success(let message):
                dispatch(message, from: connection, now: now, in: &s)
            }
        }
    }

    /// A message the edge refused before parsing (a binary frame where text was expected, a message
    /// over the socket's size limit): counted as malformed and answered with `error`.
    public func reject(_ error: StudioError, from connection: Int) {
        state.withLock { s in
            s.statistics.received += 1
            s.statistics.malformed += 1
            s.outboxes[connection]?(.text(StudioServerMessage.error(error).text))
        }
    }

    private func reply(_ message: StudioServerMessage, to connection: Int, in s: inout State) {
        s.outboxes[connection]?(.text(message.text))
    }

    private func dispatch(_ message: StudioClientMessage, from connection: Int, now: Double, in s: inout State) {
        if case .hello(let requested, let subscriptions) = message {
            hello(requested, subscriptions, connection: connection, now: now, in: &s)
            return
        }
        if case .ping(let t) = message {
            reply(.pong(t: t, server: (now * 1000).rounded()), to: connection, in: &s)
            return
        }
        if case .clock(let t) = message {
            let audio = s.active.flatMap { (s.instruments[$0] as? any StudioAudioClock)?.audioTime(now: now) }
            reply(.clock(t: t, audio: audio, server: (now * 1000).rounded()), to: connection, in: &s)
            return
        }
        guard let id = s.connections[connection], var client = s.clients[id] else {
            reply(.error(StudioError(code: "not_ready", message: "send hello first", ref: message.type)), to: connection, in: &s)
            return
        }
        do throws(StudioError) {
            switch message {
            case .hello, .ping, .clock: break
            case .audio(let report):
                let callback = onAudioReport.withLock { $0 }
                callback?(report, id, now)
            case .select(let instrument):
                guard let index = s.instruments.firstIndex(where: { $0.id == instrument }) else { throw .unknownInstrument(instrument) }
                if index != s.active {
                    if let old = s.active {
                        for key in s.clients.keys { s.clients[key]?.touches.removeAll() }
                        client.touches.removeAll()
                        s.instruments[old].silence(at: now)
                    }
                    s.active = index
                    let callback = onSelect.withLock { $0 }
                    callback?(index)
                }
                broadcast(.state(instrument: instrument, state: stateJSON(of: index, in: s)), in: &s)
            case .set(let path, let value), .action(let path, let value):
                if case .action = message, try learnAction(path: path, value: value, in: &s) { break }
                let (index, _) = try instrument(for: path, in: s)
                let changes: [String: StudioValue]
                if case .set = message {
                    changes = try s.instruments[index].apply(set: path, value: value)
                } else {
                    changes = try s.instruments[index].apply(action: path, value: value, client: id)
                }
                if !changes.isEmpty { broadcast(.changed(instrument: s.instruments[index].id, changes: changes), in: &s) }
            case .touch(let touch):
                guard let a = s.active else { throw StudioError(code: "not_ready", message: "no instrument is active", ref: "touch") }
                if touch.ends {
                    client.touches.remove(touch.id)
                } else {
                    client.touches.insert(touch.id)
                }
                s.clients[id] = client
                let changes = try s.instruments[a].touch(touch, client: id, at: now)
                if !changes.isEmpty { broadcast(.changed(instrument: s.instruments[a].id, changes: changes), in: &s) }
                return
            }
        } catch {
            s.statistics.refused += 1
            reply(.error(error), to: connection, in: &s)
        }
    }

    /// `path` = `<instrument>.<control>`: the instrument's index; only the active instrument takes controls.
    private func instrument(for path: String, in s: State) throws(StudioError) -> (Int, Substring) {
        let parts = path.split(separator: ".", maxSplits: 1)
        let name = String(parts[0])
        guard let index = s.instruments.firstIndex(where: { $0.id == name }) else { throw .unknownInstrument(name) }
        guard index == s.active else {
            throw StudioError(code: "not_active", message: "select \(name) first", ref: path)
        }
        return (index, parts.count > 1 ? parts[1] : "")
    }

    private func hello(_ requested: String?, _ subscriptions: Set<StudioSubscription>, connection: Int, now: Double, in s: inout State) {
        // A second hello on the same socket re-subscribes it.
        if let old = s.connections[connection], var client = s.clients[old] {
            client.subscriptions = subscriptions
            s.clients[old] = client
            sendWelcome(to: client, resumed: true, connection: connection, in: &s)
            return
        }
        let outbox = s.outboxes[connection]
        if let requested, var client = s.clients[requested] {
            // Resume: the same id within its retention (a second socket takes it over).
            if let previous = client.connection, previous != connection {
                s.connections[previous] = nil
            }
            client.connection = connection
            client.outbox = outbox
            client.subscriptions = subscriptions
            client.detachedAt = nil
            let replay = client.pendingOverflow ? [] : client.pending
            let overflow = client.pendingOverflow
            client.pending.removeAll()
            client.pendingOverflow = false
            s.clients[requested] = client
            s.connections[connection] = requested
            s.statistics.resumed += 1
            sendWelcome(to: client, resumed: true, connection: connection, in: &s)
            if overflow {
                sendState(to: connection, in: &s)
            } else {
                for m in replay { outbox?(m) }
            }
            return
        }
        guard s.clients.count < options.maximumClients else {
            reply(.error(StudioError(code: "too_many_clients", message: "the studio has \(options.maximumClients) clients", ref: "hello")),
                  to: connection, in: &s)
            return
        }
        let id = "c\(s.nextClient)-\(StudioToken.random().prefix(8))"
        s.nextClient += 1
        let client = Client(id: id, connection: connection, outbox: outbox, subscriptions: subscriptions,
                            limiter: StudioRateLimiter(rate: options.rate, burst: options.burst))
        s.clients[id] = client
        s.connections[connection] = id
        sendWelcome(to: client, resumed: false, connection: connection, in: &s)
        if subscriptions.contains(.state) { sendState(to: connection, in: &s) }
    }

    private func sendWelcome(to client: Client, resumed: Bool, connection: Int, in s: inout State) {
        reply(.welcome(client: client.id, instrument: s.active.map { s.instruments[$0].id },
                       instruments: s.instruments.map { ($0.id, $0.displayName) }, audio: s.audio, resumed: resumed,
                       info: s.info),
              to: connection, in: &s)
    }

    private func sendState(to connection: Int, in s: inout State) {
        guard let a = s.active else { return }
        reply(.state(instrument: s.instruments[a].id, state: stateJSON(of: a, in: s)), to: connection, in: &s)
    }

    /// Sends to every client subscribed; a retained (disconnected) client keeps state messages for replay.
    private func broadcast(_ message: StudioServerMessage, in s: inout State) {
        let text = StudioOutgoing.text(message.text)
        let subscription = message.subscription
        for (id, var client) in s.clients {
            if let subscription, !client.subscriptions.contains(subscription) { continue }
            if let outbox = client.outbox {
                outbox(text)
            } else if subscription == .state {
                if client.pending.count < options.maximumPending {
                    client.pending.append(text)
                } else {
                    client.pendingOverflow = true
                }
                s.clients[id] = client
            }
        }
    }

    // MARK: MIDI learn (settings-learn)

    /// The instrument's state with its MIDI learn state (`learn`: armed control, bindings, learnable controls).
    private func stateJSON(of index: Int, in s: State) -> [String: StudioValue] {
        var state = s.instruments[index].stateJSON()
        state["learn"] = s.learn.json(instrument: s.instruments[index].id)
        return state
    }

    /// `<id>.learn` (value: a control path, `"hecate.bpm"` or `"bpm"`): the next controller that moves
    /// binds to it; `<id>.learnCancel`; `<id>.learnClear` (a path, or null for all of the instrument's).
    /// False when `path` is not a learn action (the instrument's own action then).
    private func learnAction(path: String, value: StudioValue, in s: inout State) throws(StudioError) -> Bool {
        let (index, name) = try instrument(for: path, in: s)
        let id = s.instruments[index].id
        func control(_ v: StudioValue) throws(StudioError) -> String {
            guard let text = v.string, text.utf8.count <= 128 else { throw .badValue(path, expected: "a control path such as \(id).bpm") }
            let full = text.hasPrefix(id + ".") ? text : id + "." + text
            guard MIDILearnableControl.named(full) != nil else {
                throw .outOfRange(path, range: MIDILearnableControl.all.map(\.path).filter { $0.hasPrefix(id + ".") }.joined(separator: ", "))
            }
            return full
        }
        switch name {
        case "learn":
            let full = try control(value)
            do throws(ProsperoSettingsError) { try s.learn.arm(full) } catch { throw .badValue(path, expected: error.reason) }
        case "learnCancel": s.learn.cancel()
        case "learnClear":
            if value.isNull {
                for b in s.learn.bindings where b.parameter.hasPrefix(id + ".") { s.learn.clear(b.parameter) }
            } else {
                s.learn.clear(try control(value))
            }
        default: return false
        }
        broadcast(.changed(instrument: id, changes: ["learn": s.learn.json(instrument: id)]), in: &s)
        return true
    }

    /// The control waiting for a controller (`hecate.bpm`), nil when none is armed.
    public var armedLearnControl: String? { state.withLock { $0.learn.armedControl } }

    /// The learned controllers (saved with the settings); setting them replaces every binding.
    public var midiBindings: [MIDIBinding<String>] {
        get { state.withLock { $0.learn.bindings } }
        set { state.withLock { $0.learn = MIDIControlLearn(bindings: newValue) } }
    }

    /// A message from MIDI in (a control change from JACK's `midi_in`): completes an armed learn, or
    /// moves the bound controls through their instrument's `set` (validated and smoothed as a page's
    /// slider is), broadcasting the changes.
    public func receiveMIDI(_ message: MIDIMessage) {
        state.withLock { s in
            let (learned, moves) = s.learn.receive(message)
            if let learned, let index = s.instruments.firstIndex(where: { learned.parameter.hasPrefix($0.id + ".") }) {
                let id = s.instruments[index].id
                broadcast(.changed(instrument: id, changes: ["learn": s.learn.json(instrument: id)]), in: &s)
            }
            for (path, value) in moves {
                guard let index = s.instruments.firstIndex(where: { path.hasPrefix($0.id + ".") }),
                      let changes = try? s.instruments[index].apply(set: path, value: .number(value)), !changes.isEmpty else { continue }
                broadcast(.changed(instrument: s.instruments[index].id, changes: changes), in: &s)
            }
        }
    }

    // MARK: Periodic

    /// Drops clients whose retention ran out; call about once a second.
    public func expire(now: Double) {
        state.withLock { s in
            for (id, client) in s.clients {
                if let at = client.detachedAt, now - at >= options.retention {
                    s.clients[id] = nil
                    s.statistics.expired += 1
                }
            }
        }
    }

    /// The active instrument's HUD frame to `frames` subscribers (call at up to 30 Hz).
    public func sendFrame(now: Double) {
        state.withLock { s in
            guard let a = s.active, let frame = s.instruments[a].frameJSON(now: now) else { return }
            broadcast(.frame(instrument: s.instruments[a].id, frame: frame), in: &s)
        }
    }

    /// A `status` message (audio, input sources) to `status` subscribers (call at 2 Hz).
    public func sendStatus(now: Double) {
        state.withLock { s in
            broadcast(.status(audio: s.audio, sources: s.sources.map { $0.json(now: now) }), in: &s)
        }
    }

    /// A binary frame to the connected clients subscribed to `subscription` (meters, scope, spectrum, audio).
    public func sendBinary(_ bytes: [UInt8], to subscription: StudioSubscription) {
        state.withLock { s in
            for client in s.clients.values where client.subscriptions.contains(subscription) {
                client.outbox?(.binary(bytes))
            }
        }
    }

    // MARK: Live input (the shared OSC inputs)

    /// Tracking frames from the shared inputs go to the active instrument.
    public func receive(_ frames: [TrackingFrame], at time: Double) {
        state.withLock { s in
            guard let a = s.active else { return }
            s.instruments[a].receive(frames, at: time)
        }
    }

    /// Wekinator's outputs to the active instrument.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        state.withLock { s in
            guard let a = s.active else { return }
            s.instruments[a].receiveControls(outputs, at: time)
        }
    }

    public func advance(to time: Double) {
        state.withLock { s in
            guard let a = s.active else { return }
            s.instruments[a].advance(to: time)
        }
    }

    /// The studio stops: every client's touches end, the active instrument ends every note.
    public func finish(at time: Double) {
        state.withLock { s in
            for key in s.clients.keys { s.clients[key]?.touches.removeAll() }
            guard let a = s.active else { return }
            s.instruments[a].silence(at: time)
        }
    }
}
