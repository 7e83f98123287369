import Ariel
import Enobarbus
import InstrumentSettings
import Synchronization

/// The studio's control centre, independent of any socket: the facade the server, the studio command
/// and tests call. It keeps one lock over ``StudioSessionState`` (which says why those parts change
/// together) and hands each call to the part whose job it is:
/// - ``StudioReception``: clients and their replay (connect, `hello` and resume, `welcome` and the state
///   replay, rate limits, disconnect, expiry, `status` pushes);
/// - ``StudioDispatch``: the pages' messages onto the instruments (``StudioStage``) and the changes out to
///   every client, the shared live input, what instruments change as time passes;
/// - ``StudioLearnDesk``: MIDI learn and the learned controllers (`receiveMIDI`).
/// Binary frames (meters, scope, spectrum, browser-audio PCM at ~190 blocks a second) never take that
/// lock: they go through the ``fanOut``, whose table of listeners the clients' part keeps current. A text
/// frame is parsed before the lock is taken.
///
/// Every client sees every change: a `set` that an instrument accepts is broadcast as `changed` to
/// every client subscribed to `state` (the sender too: that is its acknowledgement).
public final class StudioSession: @unchecked Sendable {
    public typealias Outbox = StudioFanOut.Outbox

    public let options: StudioSessionOptions
    /// Who listens to which binary stream; senders of meters and PCM use it without the session's lock.
    public let fanOut: StudioFanOut
    /// When a page last sent a message that was dispatched (monotonic seconds, as bits): read lock-free by ``isUnattended(at:quiet:)``.
    private let lastClientMessageBits = Atomic<UInt64>((-Double.infinity).bitPattern)
    /// The audio driver (given at construction): told which instrument renders, hears the pages' reports.
    public let audio: (any StudioAudioOutput)?
    /// The pages' cameras (given at construction with the edge's bridge process), nil when the studio runs none.
    public let camera: StudioCameraDesk?
    /// One element each time an instrument's state or the learned controllers changed (coalesced: a
    /// reader that is behind sees one). The settings saver waits on it instead of polling.
    public let changes: AsyncStream<Void>
    private let state: StudioLocked<StudioSessionState>
    private let reception: StudioReception
    private let dispatcher: StudioDispatch

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
        reception = StudioReception(options: options)
        dispatcher = StudioDispatch(audio: audio)
        let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.changes = changes
        let state = StudioLocked(StudioSessionState(clients: StudioClientRegistry(options: options, fanOut: fanOut),
                                                    stage: StudioStage(instruments: instruments, active: active), changed: changed))
        self.state = state
        camera?.attach({ client, message in
            // The studio's own camera reports to the pages that watch it; a page's camera to that page.
            if client == StudioCameraDesk.studioClient {
                fanOut.send(text: message.text, to: .camera)
            } else {
                state.withLock { $0.clients.send(.text(message.text), toClient: client) }
            }
        }, watchers: fanOut, model: {
            // The studio's camera tracks what the active instrument is played by (its `cameraModel`).
            state.withLock { s in s.stage.active.map { s.stage.instruments[$0].cameraModel } } ?? .face
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

    /// The ids of the session's instruments, in Home's order.
    public var instrumentIDs: [String] { state.withLock { $0.stage.instruments.map(\.id) } }

    /// Runs `body` on the instrument with `id` under the session's lock (for tests and the edge); nil when there is none.
    public func withInstrument<R>(_ id: String, _ body: (any StudioInstrument) throws -> R) rethrows -> R? {
        try state.withLock { s in
            guard let i = s.stage.index(of: id) else { return nil }
            return try body(s.stage.instruments[i])
        }
    }

    // MARK: Connections (StudioReception)

    /// A socket opened; returns its connection number. Nothing is sent before the client's `hello`.
    /// `frames`: where several binary frames go at once (browser audio's groups of blocks), if the socket takes
    /// them so; else each goes to `outbox`. `home`: where the socket is written from, as the edge numbers it (the
    /// server: its event loop), so that a sender can run there (``StudioFanOut/listenersHome``); nil: anywhere.
    /// `peer`: who the socket comes from as the edge counts peers (an address block), for
    /// ``StudioSessionOptions/maximumClientsPerPeer``; nil: not counted.
    public func connect(outbox: @escaping Outbox, frames: StudioFanOut.FramesOutbox? = nil, home: Int? = nil, peer: String? = nil) -> Int {
        state.withLock { reception.connect(outbox, frames: frames, home: home, peer: peer, in: &$0) }
    }

    /// The client that said hello on `connection`, nil before its hello (or after its socket closed).
    public func client(on connection: Int) -> String? {
        state.withLock { $0.clients.client(on: connection) }
    }

    /// A socket closed: the client's touches end now; its state is kept for ``StudioSessionOptions/retention``.
    /// `missedMessages`: the socket was cut with messages it never got, so a resume sends the whole state.
    public func disconnect(_ connection: Int, now: Double, missedMessages: Bool = false) {
        let leaving = state.withLock { reception.disconnect(connection, now: now, missedMessages: missedMessages, in: &$0) }
        // Its camera stops with it (the face ends). Outside the session's lock: the camera desk calls back into
        // the session (its replies, the model to track), so the session never calls it while holding the lock.
        if let leaving { camera?.clientLeft(leaving, now: now) }
    }

    /// Drops clients whose retention ran out; call about once a second.
    public func expire(now: Double) {
        state.withLock { reception.expire(now: now, in: &$0) }
    }

    /// A `status` message (audio, input sources) to `status` subscribers, only when it differs from the
    /// last one sent (call at most at 2 Hz: that is the rate limit of status pushes). True when it was sent.
    @discardableResult
    public func sendStatus(now: Double) -> Bool {
        state.withLock { reception.sendStatus(now: now, in: &$0) }
    }

    // MARK: Messages

    /// One text frame from `connection` at `now` (monotonic seconds): parsed with limits (before the lock),
    /// rate-limited and dispatched; every error is answered with an `error` message and counted, never thrown.
    public func receive(_ bytes: some Collection<UInt8>, from connection: Int, now: Double) {
        let parsed: Result<StudioClientMessage, StudioError>
        do throws(StudioError) { parsed = .success(try StudioClientMessage.parse(bytes, limits: options.parser)) } catch {
            parsed = .failure(error)
        }
        state.withLock { s in
            guard reception.admit(connection, now: now, in: &s) else { return }
            switch parsed {
            case .failure(let error):
                reception.malformed(error, from: connection, in: &s)
            case .success(.hello(let requested, let subscriptions)):
                noteInput(at: now)
                reception.hello(requested, subscriptions, connection: connection, in: &s)
            case .success(let message):
                noteInput(at: now)
                dispatcher.dispatch(message, from: connection, now: now, in: &s)
            }
        }
    }

    /// A page sent a message that parsed: the studio is attended, and an audio output resting for want of
    /// input renders again (both atomic stores).
    private func noteInput(at now: Double) {
        lastClientMessageBits.store(now.bitPattern, ordering: .relaxed)
        audio?.inputArrived(at: now)
    }

    /// One binary frame from `connection` at `now`: a camera frame (``StudioCameraFrame``) for the camera desk,
    /// rate-limited like text; anything else, or a studio without a camera bridge, is answered with `error`.
    public func receiveBinary(_ bytes: [UInt8], from connection: Int, now: Double) {
        let parsed: Result<StudioCameraFrame, StudioError>
        do throws(StudioError) { parsed = .success(try StudioCameraFrame.parse(bytes)) } catch { parsed = .failure(error) }
        let client: String? = state.withLock { s in
            guard reception.admit(connection, now: now, in: &s) else { return nil }
            if case .failure(let error) = parsed {
                reception.malformed(error, from: connection, in: &s)
                return nil
            }
            guard let id = s.clients.client(on: connection) else {
                s.reply(.error(StudioError(code: "not_ready", message: "send hello first", ref: "camera")), to: connection)
                return nil
            }
            guard camera != nil else {
                s.statistics.refused += 1
                s.reply(.error(StudioError(code: "camera_unavailable", message: "this studio runs no camera bridge", ref: "camera")), to: connection)
                return nil
            }
            return id
        }
        // The frame goes to the camera desk outside the session's lock: the desk calls back into the session,
        // and handing a JPEG to the bridge must not hold up controls.
        guard let client, case .success(let frame) = parsed, let camera else { return }
        do throws(StudioError) { try camera.submit(frame, client: client, now: now) } catch {
            state.withLock { s in
                s.statistics.refused += 1
                s.reply(.error(error), to: connection)
            }
        }
    }

    /// A message the edge refused before parsing (a binary frame where text was expected, a message
    /// over the socket's size limit): counted as malformed and answered with `error`.
    public func reject(_ error: StudioError, from connection: Int) {
        state.withLock { s in
            s.statistics.received += 1
            reception.malformed(error, from: connection, in: &s)
        }
    }

    // MARK: MIDI learn (StudioLearnDesk)

    /// The control waiting for a controller (`hecate.bpm`), nil when none is armed.
    public var armedLearnControl: String? { state.withLock { $0.learn.armedControl } }

    /// The learned controllers (saved with the settings); setting them replaces every binding.
    public var midiBindings: [MIDIBinding<String>] {
        get { state.withLock { $0.learn.bindings } }
        set { state.withLock { $0.learn.bindings = newValue } }
    }

    /// A message from MIDI in (a control change from JACK's `midi_in`, delivered as it arrives): completes
    /// an armed learn, or moves the bound controls through their instrument's `set` (validated and smoothed
    /// as a page's slider is), broadcasting the changes.
    public func receiveMIDI(_ message: MIDIMessage) {
        state.withLock { s in
            audio?.inputArrived(at: MonotonicClock.now())
            for changed in s.learn.receive(message, on: &s.stage) { s.broadcast(changed) }
        }
    }

    // MARK: Dispatch (StudioDispatch)

    /// A control set by the studio itself (the output route detected again after JACK's connections changed):
    /// through its instrument's `set`, validated as a page's, the changes broadcast to every page. Returns the
    /// changes (empty when nothing changed), nil when the instrument refused it or there is none.
    @discardableResult
    public func set(_ path: String, to value: StudioValue) -> [String: StudioValue]? {
        state.withLock { dispatcher.set(path, to: value, in: &$0) }
    }

    /// The active instrument's HUD frame to `frames` subscribers (call at up to 30 Hz).
    public func sendFrame(now: Double) {
        state.withLock { dispatcher.sendFrame(now: now, in: &$0) }
    }

    /// The active instrument advances to `time` (monotonic seconds); what it changed goes to every client.
    public func advance(to time: Double) {
        state.withLock { dispatcher.advance(to: time, in: &$0) }
    }

    /// Tracking frames from the shared inputs go to the active instrument.
    public func receive(_ frames: [TrackingFrame], at time: Double) {
        state.withLock { dispatcher.receive(frames, at: time, in: &$0) }
    }

    /// Wekinator's outputs to the active instrument.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        state.withLock { dispatcher.receiveControls(outputs, at: time, in: &$0) }
    }

    /// The studio stops: every client's touches end, the active instrument ends every note.
    public func finish(at time: Double) {
        state.withLock { dispatcher.finish(at: time, in: &$0) }
    }

    // MARK: Without the session's lock

    /// A binary frame to the connected clients subscribed to `subscription` (meters, scope, spectrum,
    /// audio), through the ``fanOut`` without the session's lock.
    public func sendBinary(_ bytes: [UInt8], to subscription: StudioSubscription) {
        fanOut.send(bytes, to: subscription)
    }

    /// True when no page watches (no subscription at all) and none has sent anything for `quiet` seconds:
    /// nothing the instruments do with time alone reaches anyone. Lock-free.
    public func isUnattended(at time: Double, quiet: Double = 2) -> Bool {
        !fanOut.hasSubscribers && time - Double(bitPattern: lastClientMessageBits.load(ordering: .relaxed)) >= quiet
    }
}
