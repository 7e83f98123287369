import Enobarbus
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import LiveHost
import Logging
import NIOCore
import ServiceLifecycle
import Studio
import Synchronization

/// The studio's HTTP and WebSocket server (Hummingbird 2): serves the bundled pages to requests that
/// pass ``StudioSecurity``, upgrades `/ws` to the protocol (docs/studio-protocol.md) and connects each
/// socket to the ``StudioSession``; a ticker on NIO's event loops (``StudioTicker``) sends the panels' binary
/// frames at 30 Hz and `status` at 2 Hz.
public final class StudioServer: @unchecked Sendable {
    public let session: StudioSession
    public let options: StudioServerOptions
    public let resources: StudioResources
    public let tap: StudioMeterTap
    /// What the sockets sent, dropped and cut off (``StudioOutboundQueue``).
    public let outbound = StudioOutboundCounters()
    /// The port listened on, -1 until then.
    private let bound: StudioBoundPort
    private let boundEvent = LiveStop()
    /// The application's service group while it serves (``stopAccepting()`` ends its listening).
    let listening = Mutex<ServiceGroup?>(nil)
    /// The one access check of pages and upgrades (token guessing limited per address).
    public let access: StudioAccess
    /// Every open connection, against the options' caps (``StudioConnectionCensus``).
    public let census: StudioConnectionCensus

    /// The audio driver's status now (JACK's xruns and load, the browser listeners), read at 2 Hz.
    private let audioStatus: (@Sendable (Double) -> StudioAudioStatus)?

    /// - Parameters:
    ///   - log: where the server reports what a user should know (a blocked token guesser).
    ///   - audioStatus: the driver's status at a time; pushed to `status` subscribers when it changes (at most 2 Hz).
    public init(session: StudioSession, options: StudioServerOptions, resources: StudioResources, tap: StudioMeterTap = StudioMeterTap(),
                log: @escaping @Sendable (String) -> Void = { print($0) },
                audioStatus: (@Sendable (Double) -> StudioAudioStatus)? = nil) {
        self.session = session
        self.audioStatus = audioStatus
        self.options = options
        self.resources = resources
        self.tap = tap
        let bound = StudioBoundPort()
        self.bound = bound
        census = StudioConnectionCensus(limits: options.limits)
        access = StudioAccess(security: { options.security(boundPort: bound.port ?? options.port) }, scheme: options.scheme, log: log)
    }

    /// The port the server listens on once it runs (the chosen one for `port` 0).
    public var boundPort: Int? { bound.port }

    /// Waits up to `timeout` for the server to listen; its port, nil if it did not.
    public func waitUntilListening(timeout: Duration = .seconds(10)) -> Int? {
        boundEvent.wait(timeout: timeout)
        return boundPort
    }

    /// The URL to print: `http://HOST:PORT/` with `?token=` when a token is needed (and `withToken`).
    public func url(host: String? = nil, withToken: Bool = true) -> String {
        let h = host ?? options.host
        let shown = h.contains(":") ? "[\(h)]" : h
        return "\(options.scheme)://\(shown):\(boundPort ?? options.port)/" + (withToken ? options.token.map { "?token=\($0)" } ?? "" : "")
    }

    /// Every page's and file's Content-Security-Policy: scripts, styles, connections (the same-origin
    /// WebSocket), fonts and workers from this server only; no inline script or style, no eval; images
    /// also as `data:` (the pages' empty icon); no plugins, no framing, no `<base>`.
    public static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    var now: Double { MonotonicClock.now() }

    /// Serves until `stop` is requested; then ends the session's notes, closes every socket and returns.
    /// (The studio app runs the server as a ``Service`` instead: ``run()``.)
    public func run(stop: LiveStop) async throws {
        let serving = try startServing()
        // Ends when the stop is requested, or when the server could not start (a taken port).
        let ended = Task(executorPreference: options.executor) { _ = await serving.serving.result; stop.request(.failed("the studio server ended")) }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            stop.onRequest { done.resume() }
        }
        session.finish(at: now)
        defer { ended.cancel() }
        try await close(serving)
    }

    /// A server that serves: Hummingbird's application in its own service group, and the ticker.
    struct Serving: Sendable {
        let group: ServiceGroup
        let serving: Task<Void, any Error>
        let ticker: StudioTicker
    }

    /// Builds the routes and starts serving and ticking. Throws when the TLS files cannot be read.
    func startServing() throws -> Serving {
        // Pages and resources: every request passes the access middleware first.
        let router = Router(context: StudioRequestContext.self)
        // Over HTTPS the cookie is Secure: a browser never sends the token back over plain HTTP.
        let secure = options.tls != nil
        router.add(middleware: StudioAccessMiddleware(access: access, setCookie: { [self] in
            security.setCookie.map { secure ? $0 + "; Secure" : $0 }
        }))
        router.get("/**") { [self] request, _ in try serveResource(request) }
        router.get("/") { [self] request, _ in try serveResource(request) }
        // Frames up to twice the message limit are read, so that a message over the limit is seen and counted
        // (larger frames are cut by the WebSocket layer itself).
        let wsConfiguration = WebSocketServerConfiguration(maxFrameSize: 2 * options.maximumFrameBytes)
        let access = self.access
        let census = self.census
        let limits = options.limits
        let tls = try options.tls.map { try StudioTLSContext(certificate: $0.certificate, key: $0.key) }
        // Keep-alive connections between requests: Hummingbird's own idle timer (the first head is the request guard's).
        let http1 = HTTP1Channel.Configuration(idleTimeout: StudioConnectionLimits.amount(limits.idleTimeout))
        let server = HTTPServerBuilder { responder in
            // The socket: only upgrades the gate allowed get here, so nothing is decided again but the path. Decided on
            // the connection's loop (Hummingbird's asynchronous form runs it as a task on Swift's pool, where a pool
            // busy computing kept a page's upgrade waiting as long as it was busy).
            let upgrade = HTTP1WebSocketUpgradeChannel(
                responder: responder, configuration: .init(http1: http1, ws: wsConfiguration)
            ) { [self] head, channel, _ in
                guard head.path?.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/ws" else {
                    return .dontUpgrade
                }
                return .upgrade([:]) { [self] inbound, outbound, _ in
                    try await serveSocket(inbound: inbound, outbound: outbound, channel: channel)
                }
            }
            let http = StudioGatedChannel(base: upgrade, access: access, census: census)
            guard let tls else { return StudioGuardedChannel(base: http, census: census) }
            // Plain http:// to the HTTPS port is told to use https:// (StudioPlainHTTPAnswer).
            let secure = StudioPlainHTTPAnswerChannel(base: StudioTLSChannel(
                base: http, tls: tls, handshakeTimeout: StudioConnectionLimits.amount(limits.handshakeTimeout)))
            return StudioGuardedChannel(base: secure, census: census)
        }
        var logger = Logger(label: "prospero.studio")
        logger.logLevel = .critical  // the studio reports what matters itself
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { [self] channel in
                bound.port = channel.localAddress?.port
                self.boundEvent.request(.requested)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let serving = Task(executorPreference: options.executor) { [boundEvent] in
            // A server that could not start (a taken port) wakes whoever waits for it to listen.
            defer { boundEvent.request(.failed("the studio server ended")) }
            try await group.run()
        }
        // The tick on the first of the server's loops: its timer wakes that loop alone, and no thread of Swift's pool.
        let start = now
        tickState = TickState(last: start, lastExpiry: start)  // before the loop's first tick: the ticker's start orders it
        // On the loop the listening pages live on, riding along on their groups of audio (``rideAlong(onLoop:)``).
        let fanOut = session.fanOut
        let ticker = StudioTicker(loops: Self.eventLoops, home: { fanOut.listenersHome }) { [self] in tick() }
        ticking.withLock { $0 = ticker }
        ticker.start(after: Self.tickInterval(fanOut))
        return Serving(group: group, serving: serving, ticker: ticker)
    }

    /// Closes every socket, stops taking connections (if not already stopped) and waits for the server to end;
    /// rethrows why it failed, if it did.
    func close(_ serving: Serving) async throws {
        sockets.closeAll()
        let ticked = serving.ticker.stop()
        await serving.group.triggerGracefulShutdown()
        _ = try? await ticked.get()
        lastTicks.withLock { $0 = serving.ticker.ticks }
        ticking.withLock { $0 = nil }
        // Graceful shutdown closes idle keep-alive connections; anything still open after 300 ms is cut at its
        // socket, whatever it waits for (a peer that does not read a close_notify or a close frame included).
        let census = self.census
        let guardTask = Task(executorPreference: options.executor) {
            try await Task.sleep(for: .milliseconds(300))
            census.closeAll()
            serving.serving.cancel()
        }
        let result = await serving.serving.result
        guardTask.cancel()
        if case .failure(let error) = result, !(error is CancellationError) { throw error }
    }

    /// The open sockets' stop signals: on stop, each handler ends and its socket closes.
    let sockets = SocketClosers()

    final class SocketClosers: @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        private var closed = false
        /// Sockets that ended before their waiter registered.
        private var gone: Set<Int> = []

        /// Waits until ``closeAll()`` (at once if it already ran).
        func wait(_ id: Int) async {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                lock.lock()
                if closed || gone.remove(id) != nil {
                    lock.unlock()
                    c.resume()
                } else {
                    waiting[id] = c
                    lock.unlock()
                }
            }
        }

        /// The socket ended by itself: its waiter goes.
        func remove(_ id: Int) {
            lock.lock()
            let c = waiting.removeValue(forKey: id)
            if c == nil && !closed { gone.insert(id) }
            lock.unlock()
            c?.resume()
        }

        func closeAll() {
            lock.lock()
            closed = true
            let all = waiting
            waiting.removeAll()
            lock.unlock()
            for c in all.values { c.resume() }
        }
    }

    var security: StudioSecurity { options.security(boundPort: boundPort ?? options.port) }

    private func serveResource(_ request: Request) throws -> Response {
        let path = request.uri.path
        guard let file = resources.file(at: path) else {
            // "/hecate" → "/hecate/" so that the page's relative links resolve.
            if !path.hasSuffix("/"), resources.file(at: path + "/") != nil {
                return Response(status: .movedPermanently, headers: [.location: path + "/"])
            }
            throw HTTPError(.notFound)
        }
        var headers: HTTPFields = [.contentType: file.contentType, .cacheControl: "no-cache"]
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        headers[.init("Referrer-Policy")!] = "no-referrer"
        headers[.init("Content-Security-Policy")!] = Self.contentSecurityPolicy
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }

    /// One socket: text through its ``StudioOutboundQueue`` and Hummingbird's writer (whole, in order), binary
    /// frames straight to its channel (``StudioBinaryWriter``: browser audio's blocks cost no Swift task hop).
    private func serveSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async throws {
        let queue = StudioOutboundQueue(counters: self.outbound)
        let binary = await StudioBinaryWriter.make(channel: channel, counters: self.outbound)
        // Its loop is its home: browser audio rings that loop for it, which writes it in the same wake-up.
        let connection = session.connect(outbox: { message in
            switch message {
            case .text: queue.push(message)
            case .binary(let bytes): binary.push(bytes)
            }
        }, frames: { binary.push(contentsOf: $0) }, home: Self.home(of: channel.eventLoop),
           peer: channel.remoteAddress.flatMap(StudioAddressBlock.init)?.description)
        defer {
            binary.close()
            queue.finish()
            session.disconnect(connection, now: now, missedMessages: queue.overflowed)
        }
        // Four parts; the first of the first three to end (the client closed, the writer failed, the studio stops)
        // ends the others, and so does the fourth when the socket has not said hello within the idle timeout.
        let sockets = self.sockets
        let session = self.session
        let helloTimeout = Duration.nanoseconds(Int64(options.limits.idleTimeout * 1e9))
        let census = self.census
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await message in queue.stream {
                    do {
                        switch message {
                        case .text(let text): try await outbound.write(.text(text))
                        case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                        }
                    } catch { return true }
                    queue.written(message)
                }
                return true
            }
            group.addTask {
                do { try await Task.sleep(for: helloTimeout) } catch { return false }
                guard session.client(on: connection) == nil else { return false }
                census.countTimedOut()
                return true
            }
            group.addTask { [self] in
                do {
                    for try await message in inbound.messages(maxSize: options.maximumFrameBytes) {
                        switch message {
                        case .text(let text): session.receive(Array(text.utf8), from: connection, now: now)
                        // Camera frames (the only binary messages a page sends) go to the camera desk.
                        case .binary(let buffer): session.receiveBinary(Array(buffer.readableBytesView), from: connection, now: now)
                        }
                    }
                } catch is CancellationError {
                } catch {
                    // Over the socket's size limit: counted; the socket closes.
                    session.reject(.tooLarge(options.maximumFrameBytes + 1, limit: options.maximumFrameBytes), from: connection)
                }
                return true
            }
            group.addTask {
                await sockets.wait(connection)
                return true
            }
            while let ends = await group.next(), !ends {}
            queue.finish()
            sockets.remove(connection)
            group.cancelAll()
        }
    }

    /// 30 Hz: meters, scope and spectrum frames, the instrument's HUD frame; 2 Hz: the status, sent when it
    /// changed; 1 Hz: expiry. With no page watching a panel (``watchedAt30Hz``: a page that only listens, or
    /// none at all), 4 Hz and only what has no audience too: the meter tap drained, the instrument's own changes
    /// (taken so they never pile up), the status and expiry.
    /// The streams the 30 Hz tick is for: the panels, the HUD frames and the instrument's own changes (`state`).
    /// `status` (2 Hz), `audio` (the render's own thread) and `camera` (the camera desk's) need only the 4 Hz tick.
    static let watchedAt30Hz: [StudioSubscription] = [.meters, .scope, .spectrum, .frames, .state]

    /// The tick's period now: 33 ms (30 Hz) while a page watches a stream of ``watchedAt30Hz``, else 250 ms (4 Hz).
    public static func tickInterval(_ fanOut: StudioFanOut) -> TimeAmount {
        .milliseconds(watchedAt30Hz.contains { fanOut.hasSubscribers(to: $0) } ? 33 : 250)
    }

    /// What the tick keeps between ticks (one tick at a time touches it: ``StudioTicker``).
    private struct TickState {
        var count = 0
        /// When the last tick ran, the status was last sent and clients last expired (monotonic seconds).
        var last: Double
        var lastStatus = -Double.infinity
        var lastExpiry: Double
    }

    /// The ticker while the server serves.
    private let ticking = Mutex<StudioTicker?>(nil)
    /// The last ticker's counts once it stopped.
    private let lastTicks = Mutex((all: 0, ridden: 0))

    /// The studio's ticks so far, and how many rode along on a group of browser audio (``StudioTicker``).
    public var ticks: (all: Int, ridden: Int) { ticking.withLock { $0 }?.ticks ?? lastTicks.withLock { $0 } }

    /// Event loop number `index` of ``eventLoops`` is awake for a group of browser audio: the tick, if due and
    /// waiting on that loop, runs now instead of waking it again (``StudioTicker/rideAlong(onLoop:)``).
    public func rideAlong(onLoop index: Int) {
        ticking.withLock { $0 }?.rideAlong(onLoop: index)
    }

    /// One tick, on the ticker's loop; returns the delay until the next (``tickInterval(_:)``).
    private func tick() -> TimeAmount {
        let t = now
        var state = tickState
        let fanOut = session.fanOut
        // Drained even unwatched, so that the meters a page opens to are the ballistics of now.
        let panels = [StudioSubscription.meters, .scope, .spectrum].contains { fanOut.hasSubscribers(to: $0) }
        tap.update(silentFor: min(t - state.last, 0.25), shown: panels)
        if fanOut.hasSubscribers {
            // Each panel computed only when a page shows it (a listening phone may show none).
            if fanOut.hasSubscribers(to: .meters) { session.sendBinary(StudioBinaryFrame.encode(.meters, tap.meters), to: .meters) }
            if fanOut.hasSubscribers(to: .scope) { session.sendBinary(StudioBinaryFrame.encode(.scope, tap.scope), to: .scope) }
            if state.count % 2 == 0, fanOut.hasSubscribers(to: .spectrum) {
                session.sendBinary(StudioBinaryFrame.encode(.spectrum, tap.spectrum), to: .spectrum)
            }
            state.count += 1
        }
        state.last = t
        session.sendFrame(now: t)
        if t - state.lastStatus >= 0.5 {
            state.lastStatus = t
            if let audioStatus { session.audioStatus = audioStatus(t) }
            session.sendStatus(now: t)
        }
        if t - state.lastExpiry >= 1 {
            state.lastExpiry = t
            session.expire(now: t)
        }
        tickState = state
        return Self.tickInterval(fanOut)
    }
    /// Only the ticks read and write it (``tick()``), one after the other, once the ticker started.
    private var tickState = TickState(last: 0, lastExpiry: 0)
}
