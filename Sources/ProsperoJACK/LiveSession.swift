import Glibc
import LiveHost
import LiveHostPOSIX
import Synchronization

/// Runs a ``JACKProcessHandler`` live: opens the JACK client, activates it, connects the
/// ports, reports what it did, then runs until its ``LiveStop`` is requested (a signal through
/// ``SignalStop``, the duration, ``requestStop()``, another part of the live host) or the server
/// shuts down, and stops cleanly (final period with note-offs and CC 123, fade-out, deactivate, close).
///
/// This is what `prospero play` runs once it has built its synth:
/// `let outcome = try LiveSession(handler: synth, options: options).run()`.
///
/// As the live host's ``LiveAudioBackend`` it keeps an ``AudioHostStatus`` snapshot (counters and
/// load each poll, ports and latency each second), which its report lines are printed from and
/// which any thread may read.
public final class LiveSession: LiveAudioBackend, @unchecked Sendable {
    public let options: LiveSessionOptions
    private let handler: any JACKProcessHandler
    private let log: @Sendable (String) -> Void
    /// The session's stop; share it with the rest of a live host so that one request ends everything.
    public let stop: LiveStop
    /// Runs after a stop was requested and before the final period (e.g. the input loop's last
    /// note-offs are queued); keep it short, it delays the stop.
    public let beforeFinalPeriod: (@Sendable () -> Void)?
    /// The live input's frame clock: attached to each client the session opens, so that input events
    /// are due at their arrival frame plus its delay; its delay is part of the latency reported.
    public let inputClock: JACKInputClock?
    /// Called on the session's thread when connections in the server's graph changed (a playback port
    /// connected or disconnected, a device's ports replaced) and then stayed unchanged for
    /// ``graphSettleTime``, with the full names of this client's audio outputs: where the sound goes may
    /// have changed (``JACKOutputRoute/detect(serverName:outputs:)``). Also once after the session's
    /// own connections. Keep it short; the session's polling waits for it.
    public let onGraphChange: (@Sendable (_ outputs: [String]) -> Void)?
    /// How long the graph must stay unchanged before ``onGraphChange`` runs (connections come in pairs,
    /// and a patchbay makes several at once).
    public static let graphSettleTime: Duration = .milliseconds(150)
    private let reconnections = Atomic<Int>(0)
    private let lastStatistics = Mutex(JACKClientStatistics())
    private let lastStatus: Mutex<AudioHostStatus>
    /// Every callback's timing when ``LiveSessionOptions/callbackTimingCapacity`` asks for it (shared by
    /// the clients of a reconnecting session: its ring holds the latest callbacks of all of them).
    public let callbackTiming: JACKCallbackTiming?

    /// How often the main loop looks at the server and its statistics; a stop request wakes it at once.
    public static let pollInterval: Duration = .milliseconds(10)

    /// - Parameters:
    ///   - handler: renders audio and MIDI; kept alive by the session.
    ///   - log: receives one line per report (default: standard output).
    ///   - inputClock, beforeFinalPeriod, onGraphChange: see the properties; given here, fixed for the session's life.
    public init(
        handler: any JACKProcessHandler,
        options: LiveSessionOptions = LiveSessionOptions(),
        stop: LiveStop = LiveStop(),
        log: @escaping @Sendable (String) -> Void = { print($0) },
        inputClock: JACKInputClock? = nil,
        beforeFinalPeriod: (@Sendable () -> Void)? = nil,
        onGraphChange: (@Sendable (_ outputs: [String]) -> Void)? = nil
    ) {
        self.inputClock = inputClock
        self.beforeFinalPeriod = beforeFinalPeriod
        self.onGraphChange = onGraphChange
        self.handler = handler
        self.options = options
        self.stop = stop
        self.log = log
        callbackTiming = options.callbackTimingCapacity.map { JACKCallbackTiming(capacity: $0) }
        lastStatus = Mutex(AudioHostStatus(
            backend: .jack, clientName: options.client.clientName, serverName: options.client.serverName,
            sampleRate: 0, periodFrames: 0))
    }

    /// The latest snapshot of the client (before the first connection: its name and server only); any thread.
    public var audioStatus: AudioHostStatus { lastStatus.withLock { $0 } }

    /// Asks a running session to stop; safe from any thread. `run()` returns ``LiveSessionOutcome/stopRequested``.
    public func requestStop() {
        stop.request(.requested)
    }

    /// Times the session came back after the server went away.
    public var reconnectionCount: Int { reconnections.load(ordering: .relaxed) }

    /// Counters of the current client (of the last one once `run()` returned); any thread.
    public var statistics: JACKClientStatistics { lastStatistics.withLock { $0 } }

    /// Plays until told to stop. Throws when JACK is missing or unreachable at the start, or a
    /// named port to connect does not exist; a server that goes away later ends the session
    /// with ``LiveSessionOutcome/serverShutDown(reason:)`` (or is waited for, with `reconnect`).
    public func run() throws(JACKError) -> LiveSessionOutcome {
        if options.handlesSignals { SignalStop.install(stop) }
        let stop = self.stop

        func reasonToEnd() -> LiveSessionOutcome? {
            guard let reason = stop.reason else { return nil }
            switch reason {
            case .signal(let number): return .interrupted(signal: number)
            case .durationElapsed: return .durationElapsed
            case .requested: return .stopRequested
            case .failed(let why): return .failed(reason: why)
            }
        }

        var client: JACKClient? = try start(isReconnect: false)
        stop.stopAfter(options.duration)
        var reportedXruns = 0
        var nextFullStatus = ContinuousClock.now + .seconds(1)
        var seenGraphChanges = 0
        var graphChangedAt: ContinuousClock.Instant?
        // The handler's latency may change while it plays (the studio's instruments differ in look-ahead).
        var reportedLatency = client?.handlerProcessingLatency ?? 0
        while true {
            if let outcome = reasonToEnd() {
                if let client {
                    beforeFinalPeriod?()
                    finish(client, because: outcome)
                }
                return outcome
            }
            if let current = client {
                let statistics = current.statistics
                lastStatistics.withLock { $0 = statistics }
                let latency = current.handlerProcessingLatency
                let latencyChanged = latency != reportedLatency && !current.isServerGone
                if latencyChanged {
                    // JACK asks the latency callback again: the ports carry the new figure, which the status below reads.
                    reportedLatency = latency
                    current.recomputeLatencies()
                }
                let status: AudioHostStatus
                if latencyChanged || (ContinuousClock.now >= nextFullStatus && !current.isServerGone) {
                    nextFullStatus = ContinuousClock.now + .seconds(1)
                    var full = current.audioStatus
                    full.inputDelayFrames = inputClock?.delay(forPeriod: full.periodFrames)
                    status = full
                    lastStatus.withLock { $0 = full }
                } else {
                    let load = current.isServerGone ? nil : current.cpuLoad
                    status = lastStatus.withLock { s in
                        s.apply(statistics)
                        s.cpuLoad = load ?? s.cpuLoad
                        return s
                    }
                }
                if latencyChanged { log(status.latencyLine) }
                if status.xruns > reportedXruns {
                    log(status.xrunLine)
                    reportedXruns = status.xruns
                }
                if let onGraphChange {
                    let changes = current.graphChangeCount
                    if changes != seenGraphChanges {
                        seenGraphChanges = changes
                        graphChangedAt = ContinuousClock.now
                    } else if let at = graphChangedAt, ContinuousClock.now - at >= Self.graphSettleTime {
                        graphChangedAt = nil
                        onGraphChange([JACKClient.PortName.leftOutput, JACKClient.PortName.rightOutput].map { "\(current.name):\($0)" })
                    }
                }
                if current.isServerGone {
                    let reason = current.serverShutdownReason ?? "unknown reason"
                    lastStatus.withLock {
                        $0.isRunning = false
                        $0.shutdownReason = reason
                    }
                    log("JACK server shut down: \(reason)")
                    inputClock?.detach()
                    let closed = current.close()
                    client = nil
                    if !closed {
                        // libjack's global lock stays held: a reconnect would block for good, so the session ends.
                        let stuck = JACKError.libraryWedged(detail: "the client's close after the shutdown did not return").description
                        log("warning: \(stuck)")
                        stop.request(.failed("the JACK server shut down (\(reason)); \(stuck)"))
                        return .serverShutDown(reason: reason)
                    }
                    guard options.reconnect else {
                        stop.request(.failed("the JACK server shut down (\(reason))"))
                        return .serverShutDown(reason: reason)
                    }
                    log("Waiting for the JACK server to return (Ctrl-C to give up)…")
                }
            } else {
                // Reconnecting: one attempt per interval, still polling for a reason to end.
                do {
                    client = try start(isReconnect: true)
                    reportedLatency = client?.handlerProcessingLatency ?? 0
                    reconnections.add(1, ordering: .relaxed)
                    reportedXruns = 0
                    seenGraphChanges = 0
                } catch .serverUnavailable {
                    let retryAt = ContinuousClock.now + options.reconnectInterval
                    while ContinuousClock.now < retryAt, reasonToEnd() == nil {
                        stop.wait(timeout: Self.pollInterval)
                    }
                    continue
                }
            }
            stop.wait(timeout: Self.pollInterval)
        }
    }

    /// Opens, activates and connects a client, and reports the setup.
    private func start(isReconnect: Bool) throws(JACKError) -> JACKClient {
        let client = try JACKClient(configuration: options.client)
        try client.activate(handler: handler, timing: callbackTiming)
        do {
            try connectPorts(of: client)
        } catch {
            if !isReconnect {
                client.close()
                throw error
            }
            log("warning: \(error)")
        }
        inputClock?.attach(client)
        report(client, isReconnect: isReconnect)
        return client
    }

    private func connectPorts(of client: JACKClient) throws(JACKError) {
        switch options.audioConnection {
        case .never:
            break
        case .ports(let left, let right):
            try connect(client, client.ports.leftOutput, to: left)
            try connect(client, client.ports.rightOutput, to: right)
        case .automatic:
            let playback = client.portNames(type: .audio, isInput: true, physicalOnly: true)
            if let first = playback.first {
                try connect(client, client.ports.leftOutput, to: first)
                try connect(client, client.ports.rightOutput, to: playback.count > 1 ? playback[1] : first)
            }
        }
        for source in options.midiInputSources {
            try connect(client, source, to: client.ports.midiInput)
        }
        for destination in options.midiOutputDestinations {
            try connect(client, client.ports.midiOutput, to: destination)
        }
    }

    /// Connects and waits until the link carries data (``JACKClient/connect(_:to:confirmation:giveUp:)``), so that
    /// the ready lines come when the first note can arrive; a peer that does not answer gets a warning. A stop
    /// (Ctrl-C) ends the wait at once.
    private func connect(_ client: JACKClient, _ source: String, to destination: String) throws(JACKError) {
        let confirmation = Duration.seconds(3)
        let stop = self.stop
        if try !client.connect(source, to: destination, confirmation: confirmation, giveUp: { stop.isRequested }),
           !client.isServerGone, !stop.isRequested {
            log("warning: JACK has not confirmed \(source) → \(destination) after \(confirmation.components.seconds) s; "
                + "what is sent before that client answers is lost")
        }
    }

    private func report(_ client: JACKClient, isReconnect: Bool) {
        var status = client.audioStatus
        status.inputDelayFrames = inputClock?.delay(forPeriod: status.periodFrames)
        lastStatus.withLock { $0 = status }
        for line in status.setupLines(isReconnect: isReconnect) { log(line) }
    }

    private func finish(_ client: JACKClient, because outcome: LiveSessionOutcome) {
        let finalPeriodRan = client.stop()
        inputClock?.detach()
        let statistics = client.statistics
        lastStatistics.withLock { $0 = statistics }
        let status = lastStatus.withLock { s in
            s.apply(statistics)
            s.isRunning = false
            return s
        }
        let periodNanoseconds = Int64(client.bufferSize) * 1_000_000_000 / Int64(max(client.sampleRate, 1))
        client.close()
        log("Stopped (\(outcome))\(finalPeriodRan ? "" : ", final period did not run"): \(status.countersLine)")
        if let callbackTiming {
            for line in callbackTiming.report(periodNanoseconds: periodNanoseconds).lines { log("callback timing: " + line) }
        }
    }
}
