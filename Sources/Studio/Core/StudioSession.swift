import Ariel
import Enobarbus
import InstrumentSettings
import Synchronization

/// The studio's control centre, independent of any socket. Three parts under one lock, so that
/// instruments see one call at a time: the clients and their replay (``StudioClientRegistry``), the
/// dispatch onto the instruments (``StudioStage``) and MIDI learn (``StudioLearnDesk``). Binary frames
/// (meters, PCM) never take that lock: they go through the ``StudioFanOut`` the registry keeps current.
/// The server feeds the session the text frames it receives and gives each connection an outbox.
///
/// Every client sees every change: a `set` that an instrument accepts is broadcast as `changed` to
/// every client subscribed to `state` (the sender too: that is its acknowledgement).
public final class StudioSession: @unchecked Sendable {
    public typealias Outbox = StudioFanOut.Outbox

    public let options: StudioSessionOptions
    /// Who listens to which binary stream; senders of meters and PCM use it without the session's lock.
    public let fanOut: StudioFanOut
    /// When a page last sent a message that was dispatched (monotonic seconds, as bits).
    private let lastClientMessageBits = Atomic<UInt64>((-Double.infinity).bitPattern)
    /// The audio driver (given at construction): told which instrument renders, hears the pages' reports.
    public let audio: (any StudioAudioOutput)?
    /// The pages' cameras (given at construction with the edge's bridge process), nil when the studio runs none.
    public let camera: StudioCameraDesk?
    /// One element each time an instrument's state or the learned controllers changed (coalesced: a
    /// reader that is behind sees one). The settings saver waits on it instead of polling.
    public let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    private let state: StudioLocked<State>

    struct State {
        var clients: StudioClientRegistry
        var stage: StudioStage
        var learn = StudioLearnDesk()
        var statistics = StudioSessionStatistics()
        var audio = StudioAudioStatus(backend: .none)
        var sources: [StudioInputSource] = []
        var info: [String: StudioValue] = [:]
        /// The last `status` sent (a new one goes out only when it differs).
        var lastStatus: String?
    }

    /// - Parameters:
    ///   - instruments: made by the caller from a ``StudioInstrumentRegistry`` (Home's order).
    ///   - active: index of the instrument active at start (default the first, nil when there is none).
    ///   - audio: the audio driver, or nil when nothing renders.
    ///   - fanOut: the binary fan-out (give the browser-audio driver the same one).
    ///   - camera: the pages' cameras (its ``StudioCameraDesk/input`` joins the studio's live input), nil for none.
    public init(instruments: [any StudioInstrument], active: Int? = 0, options: StudioSessionOptions = .init(),
                audio: (any StudioAudioOutput)? = nil, fanOut: StudioFanOut = StudioFanOut(), camera: StudioCameraDesk? = nil) {
        self.options = options
        self.fanOut = fanOut
        self.audio = audio
        self.camera = camera
        (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let state = StudioLocked(State(clients: StudioClientRegistry(options: options, fanOut: fanOut),
                                       stage: StudioStage(instruments: instruments, active: active)))
        self.state = state
        camera?.attach({ client, message in
            // The studio's own camera reports to the pages that watch it; a page's camera to that page.
            if client == StudioCameraDesk.studioClient {
                fanOut.send(text: message.text, to: .camera)
            } else {
                state.withLock { $0.clients.send(.text(message.text), toClient: client) }
            }
        }, watchers: fanOut, model: {
            // The studio's camera tracks what the active instrument plays: hands for the Hands pad, else a face.
            state.withLock { $0.stage.activeID } == HandsStudioInstrument.id ? .hands : .face
        })
    }

    /// Makes every registered instrument.
    public convenience init(registry: StudioInstrumentRegistry, options: StudioSessionOptions = .init()) throws {
        try self.init(instruments: registry.entries.map { try $0.make() }, options: options)
    }

    // MARK: Reading

    public var statistics: StudioSessionStatistics { state.withLock { $0.statistics } }
    public var activeIndex: Int? { state.withLock { $0.stage.active } }
    public var activeID: String? { state.withLock { $0.stage.activeID } }
    /// Whether the active instrument does anything as time passes (``StudioInstrument/advancesWithTime``); false with none.
    public var activeAdvancesWithTime: Bool {
        state.withLock { s in s.stage.active.map { s.stage.instruments[$0].advancesWithTime } ?? false }
    }
    public var instrumentList: [(id: String, name: String)] {
        state.withLock { $0.stage.instruments.map { ($0.id, $0.displayName) } }
    }
    public var audioEngines: [any StudioAudioEngine] { state.withLock { $0.stage.instruments.map(\.audio) } }
    /// Clients connected now.
    public var connectedClientCount: Int { state.withLock { $0.clients.connectedCount } }
    /// Connected clients subscribed to browser audio (`audio`), by id.
    public var audioListeners: [String] { fanOut.subscribers(of: .audio) }
    /// Clients connected or within their retention time.
    public var clientCount: Int { state.withLock { $0.clients.clients.count } }
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
    /// The ids of the session's instruments, in Home's order.
    public var instrumentIDs: [String] { state.withLock { $0.stage.instruments.map(\.id) } }

    public func withInstrument<R>(_ id: String, _ body: (any StudioInstrument) throws -> R) rethrows -> R? {
        try state.withLock { s in
            guard let i = s.stage.index(of: id) else { return nil }
            return try body(s.stage.instruments[i])
        }
    }

    // MARK: Connections

    /// A socket opened; returns its connection number. Nothing is sent before the client's `hello`.
    /// `frames`: where several binary frames go at once (browser audio's groups of blocks), if the socket takes
    /// them so; else each goes to `outbox`.
    public func connect(outbox: @escaping Outbox, frames: StudioFanOut.FramesOutbox? = nil) -> Int {
        state.withLock { $0.clients.connect(outbox, frames: frames) }
    }

    /// A socket closed: the client's touches end now; its state is kept for ``StudioSessionOptions/retention``.
    /// `missedMessages`: the socket was cut with messages it never got, so a resume sends the whole state.
    public func disconnect(_ connection: Int, now: Double, missedMessages: Bool = false) {
        let leaving: String? = state.withLock { s in
            guard let left = s.clients.disconnect(connection, now: now, missedMessages: missedMessages) else { return nil }
            for (id, changes) in s.stage.clientLeft(left.id, touches: left.touches, now: now) {
                broadcast(.changed(instrument: id, changes: changes), in: &s)
            }
            return left.id
        }
        // Its camera stops with it (the face ends).
        if let leaving { camera?.clientLeft(leaving, now: now) }
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
            if case .refused(let notify) = s.clients.admit(connection, now: now) {
                s.statistics.rateLimited += 1
                notify?(.text(StudioServerMessage.error(.rateLimited).text))
                return
            }
            switch parsed {
            case .failure(let error):
                s.statistics.malformed += 1
                reply(.error(error), to: connection, in: s)
            case .success(let message):
                lastClientMessageBits.store(now.bitPattern, ordering: .relaxed)
                audio?.inputArrived(at: now)
                dispatch(message, from: connection, now: now, in: &s)
            }
        }
    }

    /// One binary frame from `connection` at `now`: a camera frame (``StudioCameraFrame``) for the camera desk,
    /// rate-limited like text; anything else, or a studio without a camera bridge, is answered with `error`.
    public func receiveBinary(_ bytes: [UInt8], from connection: Int, now: Double) {
        let parsed: Result<StudioCameraFrame, StudioError>
        do throws(StudioError) { parsed = .success(try StudioCameraFrame.parse(bytes)) } catch { parsed = .failure(error) }
        let client: String? = state.withLock { s in
            s.statistics.received += 1
            if case .refused(let notify) = s.clients.admit(connection, now: now) {
                s.statistics.rateLimited += 1
                notify?(.text(StudioServerMessage.error(.rateLimited).text))
                return nil
            }
            if case .failure(let error) = parsed {
                s.statistics.malformed += 1
                reply(.error(error), to: connection, in: s)
                return nil
            }
            guard let id = s.clients.client(on: connection) else {
                reply(.error(StudioError(code: "not_ready", message: "send hello first", ref: "camera")), to: connection, in: s)
                return nil
            }
            guard camera != nil else {
                s.statistics.refused += 1
                reply(.error(StudioError(code: "camera_unavailable", message: "this studio runs no camera bridge", ref: "camera")), to: connection, in: s)
                return nil
            }
            return id
        }
        guard let client, case .success(let frame) = parsed, let camera else { return }
        do throws(StudioError) { try camera.submit(frame, client: client, now: now) } catch {
            state.withLock { s in
                s.statistics.refused += 1
                reply(.error(error), to: connection, in: s)
            }
        }
    }

    /// A message the edge refused before parsing (a binary frame where text was expected, a message
    /// over the socket's size limit): counted as malformed and answered with `error`.
    public func reject(_ error: StudioError, from connection: Int) {
        state.withLock { s in
            s.statistics.received += 1
            s.statistics.malformed += 1
            reply(.error(error), to: connection, in: s)
        }
    }

    private func reply(_ message: StudioServerMessage, to connection: Int, in s: State) {
        s.clients.send(.text(message.text), to: connection)
    }

    private func dispatch(_ message: StudioClientMessage, from connection: Int, now: Double, in s: inout State) {
        switch message {
        case .hello(let requested, let subscriptions):
            hello(requested, subscriptions, connection: connection, in: &s)
            return
        case .ping(let t):
            reply(.pong(t: t, server: (now * 1000).rounded()), to: connection, in: s)
            return
        case .clock(let t):
            reply(.clock(t: t, audio: s.stage.audioTime(now: now), server: (now * 1000).rounded()), to: connection, in: s)
            return
        default: break
        }
        guard let id = s.clients.client(on: connection) else {
            reply(.error(StudioError(code: "not_ready", message: "send hello first", ref: message.type)), to: connection, in: s)
            return
        }
        do throws(StudioError) {
            switch message {
            case .hello, .ping, .clock: break
            case .audio(let report):
                audio?.report(report, client: id, at: now)
            case .select(let instrument):
                if s.stage.active != s.stage.index(of: instrument), s.stage.index(of: instrument) != nil { s.clients.forgetTouches() }
                let (index, changed) = try s.stage.select(instrument, now: now)
                if changed { audio?.select(index) }
                broadcast(.state(instrument: instrument, state: stateJSON(of: index, in: s)), in: &s)
            case .set(let path, let value), .action(let path, let value):
                if case .action = message, try learnAction(path: path, value: value, in: &s) { break }
                var isAction = false
                if case .action = message { isAction = true }
                let (instrument, changes) = try s.stage.apply(path, value: value, action: isAction, client: id)
                if !changes.isEmpty { broadcast(.changed(instrument: instrument, changes: changes), in: &s) }
            case .touch(let touch):
                s.clients.touch(touch.id, down: !touch.ends, client: id)
                let (instrument, changes) = try s.stage.touch(touch, client: id, now: now)
                if !changes.isEmpty { broadcast(.changed(instrument: instrument, changes: changes), in: &s) }
            }
        } catch {
            s.statistics.refused += 1
            reply(.error(error), to: connection, in: s)
        }
    }

    private func hello(_ requested: String?, _ subscriptions: Set<StudioSubscription>, connection: Int, in s: inout State) {
        switch s.clients.hello(requested, subscriptions, connection: connection) {
        case .full:
            reply(.error(StudioError(code: "too_many_clients", message: "the studio has \(options.maximumClients) clients", ref: "hello")),
                  to: connection, in: s)
        case .resubscribed(let id):
            sendWelcome(to: id, resumed: true, connection: connection, in: s)
        case .resumed(let id, let replay):
            s.statistics.resumed += 1
            sendWelcome(to: id, resumed: true, connection: connection, in: s)
            if let replay {
                for m in replay { s.clients.send(m, to: connection) }
            } else {
                sendState(to: connection, in: s)
            }
        case .joined(let id):
            sendWelcome(to: id, resumed: false, connection: connection, in: s)
            if subscriptions.contains(.state) { sendState(to: connection, in: s) }
            if subscriptions.contains(.status), let status = s.lastStatus { s.clients.send(.text(status), to: connection) }
        }
    }

    private func sendWelcome(to id: String, resumed: Bool, connection: Int, in s: State) {
        reply(.welcome(client: id, instrument: s.stage.activeID, instruments: s.stage.instruments.map { ($0.id, $0.displayName) },
                       audio: s.audio, resumed: resumed, info: s.info),
              to: connection, in: s)
    }

    private func sendState(to connection: Int, in s: State) {
        guard let a = s.stage.active else { return }
        reply(.state(instrument: s.stage.instruments[a].id, state: stateJSON(of: a, in: s)), to: connection, in: s)
    }

    /// To every subscribed client (retained ones keep `state` messages for replay); a state change is announced on ``changes``.
    private func broadcast(_ message: StudioServerMessage, in s: inout State) {
        s.clients.broadcast(message)
        if message.subscription == .state { changed.yield() }
    }

    // MARK: MIDI learn (settings-learn)

    /// The instrument's state with its MIDI learn state (`learn`: armed control, bindings, learnable controls).
    private func stateJSON(of index: Int, in s: State) -> [String: StudioValue] {
        var state = s.stage.instruments[index].stateJSON()
        state["learn"] = s.learn.json(instrument: s.stage.instruments[index].id)
        return state
    }

    /// `<id>.learn`, `<id>.learnCancel`, `<id>.learnClear` (``StudioLearnDesk``). False when `path` is not a learn action.
    private func learnAction(path: String, value: StudioValue, in s: inout State) throws(StudioError) -> Bool {
        let (index, name) = try s.stage.target(of: path)
        let id = s.stage.instruments[index].id
        guard try s.learn.action(name, value: value, path: path, instrument: id) else { return false }
        broadcast(.changed(instrument: id, changes: ["learn": s.learn.json(instrument: id)]), in: &s)
        return true
    }

    /// The control waiting for a controller (`hecate.bpm`), nil when none is armed.
    public var armedLearnControl: String? { state.withLock { $0.learn.learn.armedControl } }

    /// The learned controllers (saved with the settings); setting them replaces every binding.
    public var midiBindings: [MIDIBinding<String>] {
        get { state.withLock { $0.learn.learn.bindings } }
        set { state.withLock { $0.learn = StudioLearnDesk(learn: MIDIControlLearn(bindings: newValue)) } }
    }

    /// A message from MIDI in (a control change from JACK's `midi_in`, delivered as it arrives): completes
    /// an armed learn, or moves the bound controls through their instrument's `set` (validated and smoothed
    /// as a page's slider is), broadcasting the changes.
    public func receiveMIDI(_ message: MIDIMessage) {
        state.withLock { s in
            audio?.inputArrived(at: MonotonicClock.now())
            let (learned, moves) = s.learn.receive(message)
            if let learned, let index = s.stage.index(owning: learned) {
                let id = s.stage.instruments[index].id
                broadcast(.changed(instrument: id, changes: ["learn": s.learn.json(instrument: id)]), in: &s)
            }
            for (path, value) in moves {
                guard let index = s.stage.index(owning: path),
                      let changes = try? s.stage.instruments[index].apply(set: path, value: .number(value)), !changes.isEmpty else { continue }
                broadcast(.changed(instrument: s.stage.instruments[index].id, changes: changes), in: &s)
            }
        }
    }

    /// A control set by the studio itself (the output route detected again after JACK's connections changed):
    /// through its instrument's `set`, validated as a page's, the changes broadcast to every page. Returns the
    /// changes (empty when nothing changed), nil when the instrument refused it or there is none.
    @discardableResult
    public func set(_ path: String, to value: StudioValue) -> [String: StudioValue]? {
        state.withLock { s in
            guard let index = s.stage.index(owning: path),
                  let changes = try? s.stage.instruments[index].apply(set: path, value: value) else { return nil }
            if !changes.isEmpty { broadcast(.changed(instrument: s.stage.instruments[index].id, changes: changes), in: &s) }
            return changes
        }
    }

    // MARK: Periodic

    /// Drops clients whose retention ran out; call about once a second.
    public func expire(now: Double) {
        state.withLock { s in s.statistics.expired += s.clients.expire(now: now) }
    }

    /// The active instrument's HUD frame to `frames` subscribers (call at up to 30 Hz).
    public func sendFrame(now: Double) {
        state.withLock { s in
            guard let a = s.stage.active else { return }
            let instrument = s.stage.instruments[a]
            if let frame = instrument.frameJSON(now: now) {
                broadcast(.frame(instrument: instrument.id, frame: frame), in: &s)
            }
            broadcastChanges(of: instrument, in: &s)
        }
    }

    /// What the instrument changed on its own as time passed, to every client.
    private func broadcastChanges(of instrument: any StudioInstrument, in s: inout State) {
        for changes in instrument.takeChanges() where !changes.isEmpty {
            broadcast(.changed(instrument: instrument.id, changes: changes), in: &s)
        }
    }

    /// A `status` message (audio, input sources) to `status` subscribers, only when it differs from the
    /// last one sent (call at most at 2 Hz: that is the rate limit of status pushes). True when it was sent.
    @discardableResult
    public func sendStatus(now: Double) -> Bool {
        state.withLock { s in
            let message = StudioServerMessage.status(audio: s.audio, sources: s.sources.map { $0.json(now: now) })
            let text = message.text
            guard text != s.lastStatus else { return false }
            s.lastStatus = text
            s.clients.broadcast(message)
            return true
        }
    }

    /// A binary frame to the connected clients subscribed to `subscription` (meters, scope, spectrum,
    /// audio), through the ``fanOut`` without the session's lock.
    public func sendBinary(_ bytes: [UInt8], to subscription: StudioSubscription) {
        fanOut.send(bytes, to: subscription)
    }

    // MARK: Live input (the shared OSC inputs)

    /// Tracking frames from the shared inputs go to the active instrument.
    public func receive(_ frames: [TrackingFrame], at time: Double) {
        state.withLock { s in
            guard let a = s.stage.active else { return }
            audio?.inputArrived(at: time)
            s.stage.instruments[a].receive(frames, at: time)
        }
    }

    /// Wekinator's outputs to the active instrument.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        state.withLock { s in
            guard let a = s.stage.active else { return }
            audio?.inputArrived(at: time)
            s.stage.instruments[a].receiveControls(outputs, at: time)
        }
    }

    /// True when no page watches (no subscription at all) and none has sent anything for `quiet` seconds:
    /// nothing the instruments do with time alone reaches anyone. Lock-free.
    public func isUnattended(at time: Double, quiet: Double = 2) -> Bool {
        !fanOut.hasSubscribers && time - Double(bitPattern: lastClientMessageBits.load(ordering: .relaxed)) >= quiet
    }

    public func advance(to time: Double) {
        state.withLock { s in
            guard let a = s.stage.active else { return }
            s.stage.instruments[a].advance(to: time)
            broadcastChanges(of: s.stage.instruments[a], in: &s)
        }
    }

    /// The studio stops: every client's touches end, the active instrument ends every note.
    public func finish(at time: Double) {
        state.withLock { s in
            s.clients.forgetTouches()
            s.stage.silence(at: time)
        }
    }
}
