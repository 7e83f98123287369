import CJACKLoader
import Glibc
import Synchronization

/// Prospero as a JACK client: a stereo audio output, a MIDI output and a MIDI input,
/// rendered by a ``JACKProcessHandler`` in JACK's process callback.
///
/// Ports (DAWs and patchbays list them as "<client>:<port>"):
/// - `out_left`, `out_right`: audio outputs ("Prospero:out_left", "Prospero:out_right");
/// - `midi_out`: what the handler sends ("Prospero:midi_out");
/// - `midi_in`: what the handler receives ("Prospero:midi_in").
///
/// libjack (JACK 2) keeps one set of per-process globals for the server it first connects to:
/// all clients that are open at the same time in one process must use the same server.
///
/// Use from one thread (open, ``activate(handler:)``, ``stop(timeout:)``, ``close()``);
/// ``statistics``, ``serverShutdownReason`` and ``isServerGone`` may be read from any thread.
public final class JACKClient: @unchecked Sendable {
    /// How the client presents itself.
    public struct Configuration: Sendable, Hashable {
        /// Client name; JACK appends "-01", "-02" … when it is taken.
        public var clientName: String
        /// The server to join; nil for `$JACK_DEFAULT_SERVER`, else "default".
        public var serverName: String?

        public init(clientName: String = "Prospero", serverName: String? = nil) {
            self.clientName = clientName
            self.serverName = serverName
        }
    }

    /// Short names of Prospero's ports.
    public enum PortName {
        public static let leftOutput = "out_left"
        public static let rightOutput = "out_right"
        public static let midiOutput = "midi_out"
        public static let midiInput = "midi_in"
    }

    /// Full names ("client:port") of this client's ports.
    public struct Ports: Sendable, Hashable {
        public var leftOutput: String
        public var rightOutput: String
        public var midiOutput: String
        public var midiInput: String
    }

    public let configuration: Configuration
    /// Full names of this client's ports.
    public let ports: Ports
    package let connection: JACKConnection
    private let leftPort: OpaquePointer
    private let rightPort: OpaquePointer
    private let midiOutPort: OpaquePointer
    private let midiInPort: OpaquePointer
    /// Outlives activations, so that notes sounding at a failed stop are still known.
    private let midiStorage = JACKMIDIOutputStorage()
    /// The current (or last) activation's callback state; it also keeps the handler alive.
    /// Read from any thread (`statistics`, `isServerGone`), replaced only by activate: behind a lock.
    private let stateLock = Mutex<JACKRealtimeState?>(nil)
    private var state: JACKRealtimeState? {
        get { stateLock.withLock { $0 } }
        set { stateLock.withLock { $0 = newValue } }
    }
    /// True between ``activate(handler:)`` and ``stop(timeout:)``; any thread.
    public var isActive: Bool { active.load(ordering: .acquiring) }
    private let active = Atomic<Bool>(false)

    /// Opens the client and registers its ports. Never starts a server.
    /// Throws ``JACKError/libraryMissing(detail:)`` without libjack and
    /// ``JACKError/serverUnavailable(serverName:status:)`` without a server.
    public init(configuration: Configuration = Configuration()) throws(JACKError) {
        self.configuration = configuration
        connection = try JACKConnection(clientName: configuration.clientName, serverName: configuration.serverName)
        let handle = connection.handle
        func register(_ name: String, _ type: JACKPortType, output: Bool) throws(JACKError) -> OpaquePointer {
            let flags = UInt(output ? PJJackPortIsOutput : PJJackPortIsInput)
            let port = name.withCString { n in
                type.typeString.withCString { t in pj_jack_port_register(handle, n, t, flags, 0) }
            }
            guard let port else { throw .portRegistrationFailed(port: name) }
            return port
        }
        leftPort = try register(PortName.leftOutput, .audio, output: true)
        rightPort = try register(PortName.rightOutput, .audio, output: true)
        midiOutPort = try register(PortName.midiOutput, .midi, output: true)
        midiInPort = try register(PortName.midiInput, .midi, output: false)
        let fullName = { (port: OpaquePointer) in String(cString: pj_jack_port_name(port)) }
        ports = Ports(
            leftOutput: fullName(leftPort), rightOutput: fullName(rightPort),
            midiOutput: fullName(midiOutPort), midiInput: fullName(midiInPort)
        )
    }

    deinit { close() }

    /// The name the server gave this client.
    public var name: String { connection.name }
    /// The server's sample rate in Hz.
    public var sampleRate: Int { connection.sampleRate }
    /// The server's period in frames.
    public var bufferSize: Int { connection.bufferSize }
    /// Whether the server runs its process threads with real-time scheduling.
    public var isRealtime: Bool { connection.isRealtime }
    /// DSP load of the whole graph, in percent of a period.
    public var cpuLoad: Double { connection.cpuLoad }
    /// The handler's processing latency in frames (see ``JACKProcessHandler/processingLatency``), 0 before activation.
    var handlerProcessingLatency: Int { state?.handlerLatency() ?? 0 }
    /// Counters of the running client; any thread.
    public var statistics: JACKClientStatistics { state?.statistics ?? JACKClientStatistics() }
    /// How many connections were made or broken in the server's graph since activation (any client's);
    /// any thread. A change means the output may now reach another device (``JACKOutputRoute``).
    public var graphChangeCount: Int { state?.graphChanges.load(ordering: .relaxed) ?? 0 }
    /// True once the server has shut down or died while the client was active; any thread.
    public var isServerGone: Bool { state?.serverGone.load(ordering: .acquiring) ?? false }
    /// Why the server went away, once ``isServerGone``; any thread.
    public var serverShutdownReason: String? {
        guard let state, state.serverGone.load(ordering: .acquiring) else { return nil }
        return String(cString: state.shutdownReason)
    }

    /// The latest period's frame time and start while active (nil before activation).
    var periodClock: JACKPeriodClock? { state?.periodClock }

    /// Asks the server to run every latency callback again (`jack_recompute_total_latencies`), so that the
    /// ports carry the handler's new ``JACKProcessHandler/processingLatency`` (the studio switched to an
    /// instrument with another look-ahead). Not from the process thread; nothing when inactive.
    public func recomputeLatencies() {
        guard isActive, let state else { return }
        if Self.isPipeWire {
            // PipeWire 0.3.65 runs a recompute queued from this thread inside the next latency callback's
            // jack_port_set_latency_range, which then waits for a lock its own caller holds: the process hangs.
            // PipeWire passes our ports' new latencies on through the graph itself.
            connection.graphCalls.graphCall {
                state.setLatency(mode: Int32(PJJackCaptureLatency))
                state.setLatency(mode: Int32(PJJackPlaybackLatency))
            }
        } else {
            _ = pj_jack_recompute_total_latencies(connection.handle)
        }
    }

    /// Whether libjack is PipeWire's (its version string says "using PipeWire").
    static let isPipeWire: Bool = (try? JACKLibrary.load()) != nil && JACKLibrary.version.contains("PipeWire")

    /// After a graph call: the latency callbacks skipped meanwhile (``JACKGraphCallGate``) done now, by this
    /// thread under PipeWire (see ``recomputeLatencies()``), by JACK 2's server otherwise.
    private func payLatencyDebt() {
        let modes = connection.graphCalls.takeOwedModes()
        guard !modes.isEmpty, isActive, let state else { return }
        if Self.isPipeWire {
            connection.graphCalls.graphCall { for mode in modes { state.setLatency(mode: mode) } }
        } else {
            _ = pj_jack_recompute_total_latencies(connection.handle)
        }
    }

    /// Prepares `handler` for the server's sample rate and period, installs the callbacks and
    /// starts processing. The client keeps `handler` alive until the next activation or close.
    /// - Parameter timing: when given, every callback's wall and CPU time, page faults and context
    ///   switches are recorded into it (a benchmark's instrumentation: about a microsecond per callback).
    public func activate(handler: some JACKProcessHandler, timing: JACKCallbackTiming? = nil) throws(JACKError) {
        precondition(!isActive, "JACKClient.activate called while active")
        let rate = sampleRate
        let frames = bufferSize
        handler.prepare(sampleRate: Double(rate), maximumFrames: frames)
        timing?.startActivation()
        let state = JACKHandlerState(
            handler: handler, client: connection.handle, leftPort: leftPort, rightPort: rightPort, midiOutPort: midiOutPort,
            midiInPort: midiInPort, midiStorage: midiStorage, graphCalls: connection.graphCalls, timing: timing
        )
        state.preparedSampleRate.store(rate, ordering: .relaxed)
        state.preparedFrames.store(frames, ordering: .relaxed)
        // Callbacks may only be set while the client is inactive; each activation brings its own state.
        let handle = connection.handle
        let arg = Unmanaged.passUnretained(state as JACKRealtimeState).toOpaque()
        _ = pj_jack_set_process_callback(handle, jackProcessCallback, arg)
        _ = pj_jack_set_xrun_callback(handle, jackXrunCallback, arg)
        _ = pj_jack_set_buffer_size_callback(handle, jackBufferSizeCallback, arg)
        _ = pj_jack_set_sample_rate_callback(handle, jackSampleRateCallback, arg)
        if pj_jack_has_latency_callback() != 0 { _ = pj_jack_set_latency_callback(handle, jackLatencyCallback, arg) }
        _ = pj_jack_set_port_connect_callback(handle, jackPortConnectCallback, arg)
        if pj_jack_has_info_shutdown() != 0 {
            pj_jack_on_info_shutdown(handle, jackInfoShutdownCallback, arg)
        } else {
            pj_jack_on_shutdown(handle, jackShutdownCallback, arg)
        }
        self.state = state
        let code = connection.graphCalls.graphCall { pj_jack_activate(handle) }
        guard code == 0 else { throw .activationFailed(code: code) }
        active.store(true, ordering: .releasing)
        payLatencyDebt()
    }

    /// Stops playing: one final period calls the handler's `stopping(midiOut:)`, sends a
    /// note-off for every sounding note and CC 123 on every used channel, and fades the
    /// audio out; then the client deactivates. Waits at most `timeout` for that period
    /// (less when the server is gone). Returns true when the final period ran.
    @discardableResult
    public func stop(timeout: Duration = .milliseconds(1000)) -> Bool {
        guard isActive, let state else { return false }
        active.store(false, ordering: .releasing)
        var finalPeriodRan = false
        if !isServerGone {
            state.stopPhase.store(1, ordering: .releasing)
            let deadline = ContinuousClock.now + timeout
            while state.stopPhase.load(ordering: .acquiring) != 2, !isServerGone, ContinuousClock.now < deadline {
                usleep(1000)
            }
            finalPeriodRan = state.stopPhase.load(ordering: .acquiring) == 2
            if finalPeriodRan {
                // Clients after this one in the graph read the final period's MIDI in the same
                // cycle; wait for the next cycle so that deactivation cannot cut it off.
                let seen = state.periods.load(ordering: .relaxed)
                while state.periods.load(ordering: .relaxed) < seen + 2, !isServerGone, ContinuousClock.now < deadline {
                    usleep(1000)
                }
            }
        }
        if !isServerGone {
            _ = connection.graphCalls.graphCall { pj_jack_deactivate(connection.handle) }
        } else {
            midiStorage.forgetSoundingNotes()
        }
        return finalPeriodRan
    }

    /// Stops (see ``stop(timeout:)``) and closes the client. Idempotent. After the server's shutdown the close
    /// waits a bounded time (``JACKConnection/closeAfterServerShutdown()``); false when libjack did not return,
    /// after which no client can open in this process (``JACKError/libraryWedged(detail:)``).
    @discardableResult
    public func close() -> Bool {
        if isActive { stop() }
        if isServerGone { return connection.closeAfterServerShutdown() }
        connection.close()
        return true
    }

    /// Connects two ports by full name (output → input) and, while the client is active, waits at most
    /// `confirmation` until the server reports the connection made (PipeWire's JACK completes a link after
    /// `jack_connect` returns, once the peer has answered; see ``JACKConnectNotices``) and two more of this
    /// client's periods have begun (JACK applies a connection at the start of a cycle, so the period under
    /// way can still miss it): what is sent after this returns reaches the peer. Connecting a connected
    /// pair succeeds at once. `giveUp` ends the wait early (a stop asked for meanwhile).
    ///
    /// Returns false when the server had not reported the new connection when the wait ended (the
    /// connection stands; what is sent before the peer answers is lost).
    @discardableResult
    public func connect(_ source: String, to destination: String, confirmation: Duration = .seconds(3),
                        giveUp: () -> Bool = { false }) throws(JACKError) -> Bool {
        defer { payLatencyDebt() }
        let notices = isActive ? state?.connectNotices : nil
        let before = notices?.sequence ?? 0
        guard try connection.connect(source, to: destination), let notices, let state else { return true }
        let deadline = ContinuousClock.now + confirmation
        func waiting() -> Bool { !isServerGone && !giveUp() && ContinuousClock.now < deadline }
        guard awaitNotice(of: source, to: destination, in: notices, after: before, while: waiting) else { return false }
        let periods = state.periods.load(ordering: .relaxed)
        while state.periods.load(ordering: .relaxed) < periods + 2, waiting() { usleep(1000) }
        return true
    }

    /// Whether `notices` reported `source` → `destination` connected after notice number `sequence`,
    /// polled every millisecond while `waiting`.
    private func awaitNotice(of source: String, to destination: String, in notices: JACKConnectNotices, after sequence: Int,
                             while waiting: () -> Bool) -> Bool {
        let handle = connection.handle
        guard let from = source.withCString({ pj_jack_port_by_name(handle, $0) }),
              let to = destination.withCString({ pj_jack_port_by_name(handle, $0) }) else { return true }
        var seen = sequence
        repeat {
            for notice in notices.notices(after: seen) {
                seen = notice.sequence
                let a = pj_jack_port_by_id(handle, notice.source), b = pj_jack_port_by_id(handle, notice.destination)
                if (a == from && b == to) || (a == to && b == from) { return true }
            }
            usleep(1000)
        } while waiting()
        return false
    }

    /// Full names of ports on the server of `type`, receiving (`isInput` true) or sending,
    /// optionally only hardware ports.
    public func portNames(type: JACKPortType? = nil, isInput: Bool? = nil, physicalOnly: Bool = false) -> [String] {
        connection.portNames(type: type, isInput: isInput, physicalOnly: physicalOnly)
    }

    /// The named port's type, direction and connections, or nil when there is none.
    public func portInfo(named name: String) -> JACKPortInfo? {
        connection.portInfo(named: name)
    }

    /// The latency range JACK holds for any port (full name), in frames: playback (from the port to
    /// the outputs of the graph) or capture (from the graph's inputs to the port); nil for an unknown port.
    public func latencyRange(of name: String, playback: Bool) -> ClosedRange<Int>? {
        guard let port = name.withCString({ pj_jack_port_by_name(connection.handle, $0) }) else { return nil }
        var range = pj_jack_latency_range_t()
        pj_jack_port_get_latency_range(port, Int32(playback ? PJJackPlaybackLatency : PJJackCaptureLatency), &range)
        return Int(min(range.min, range.max))...Int(range.max)
    }

    /// Playback latency of the audio outputs in frames (minimum … maximum over both), as the
    /// server computed it for the current connections: the time from this client's output to
    /// the speakers.
    public var playbackLatency: ClosedRange<Int> {
        var low = Int.max
        var high = 0
        for port in [leftPort, rightPort] {
            var range = pj_jack_latency_range_t()
            pj_jack_port_get_latency_range(port, Int32(PJJackPlaybackLatency), &range)
            low = min(low, Int(range.min))
            high = max(high, Int(range.max))
        }
        return min(low, high)...high
    }
}
