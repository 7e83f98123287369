import CJACKLoader
import Glibc
import Synchronization
import Touchstone

/// Everything JACK's callbacks touch during one activation, reached through their `void *arg`
/// as an unretained pointer. The client deactivates (or the server is gone) before releasing it.
///
/// The handler lives in the generic subclass ``JACKHandlerState`` as a `let` of its concrete
/// type, and every property the audio thread reads is a `let`: the process callback then needs
/// no reference counting, no exclusivity checks and no existential, only one class-method call.
class JACKRealtimeState: @unchecked Sendable {
    /// The client, for its frame time in each period (nil: periods carry no frame time).
    let client: OpaquePointer?
    let leftPort: OpaquePointer
    let rightPort: OpaquePointer
    let midiOutPort: OpaquePointer
    let midiInPort: OpaquePointer
    let midiStorage: JACKMIDIOutputStorage
    /// Per-callback wall and CPU time, faults and switches, when the client was given one.
    let timing: JACKCallbackTiming?
    /// The latest period's frame time and start, for live input's due frames (``JACKInputClock``).
    let periodClock = JACKPeriodClock()
    /// The client's gate between the latency callback and the control thread's graph calls.
    let graphCalls: JACKGraphCallGate

    let xruns = Atomic<Int>(0)
    /// Connections made or broken anywhere in the server's graph (JACK's notification thread counts them).
    let graphChanges = Atomic<Int>(0)
    /// Connections the server reported made, for a connect that waits until its link carries data.
    let connectNotices = JACKConnectNotices()
    let periods = Atomic<Int>(0)
    let frames = Atomic<Int>(0)
    let longestCallback = Atomic<Int>(0)
    let totalCallback = Atomic<Int>(0)
    let midiOutputDropped = Atomic<Int>(0)
    let midiInputLost = Atomic<Int>(0)
    let silencedPeriods = Atomic<Int>(0)
    let skippedPeriods = Atomic<Int>(0)
    let reprepareCount = Atomic<Int>(0)

    /// Set by the server's shutdown callback; `shutdownReason` is written before it.
    let serverGone = Atomic<Bool>(false)
    let shutdownReason: UnsafeMutablePointer<CChar>
    static let reasonCapacity = 512

    /// 0 playing, 1 stop requested (the next period is the final one), 2 final period done.
    let stopPhase = Atomic<Int>(0)
    /// Re-preparation and process exclude each other without a lock (Dekker-style, sequentially consistent).
    let preparing = Atomic<Bool>(false)
    let inProcess = Atomic<Bool>(false)
    let preparedFrames = Atomic<Int>(0)
    let preparedSampleRate = Atomic<Int>(0)

    init(
        client: OpaquePointer?, leftPort: OpaquePointer, rightPort: OpaquePointer, midiOutPort: OpaquePointer,
        midiInPort: OpaquePointer, midiStorage: JACKMIDIOutputStorage, graphCalls: JACKGraphCallGate,
        timing: JACKCallbackTiming? = nil
    ) {
        self.client = client
        self.graphCalls = graphCalls
        self.leftPort = leftPort
        self.rightPort = rightPort
        self.midiOutPort = midiOutPort
        self.midiInPort = midiInPort
        self.midiStorage = midiStorage
        self.timing = timing
        shutdownReason = .allocate(capacity: Self.reasonCapacity)
        shutdownReason.initialize(repeating: 0, count: Self.reasonCapacity)
    }

    deinit { shutdownReason.deallocate() }

    // Overridden by JACKHandlerState with direct calls to its handler.
    func render(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {}

    func renderStopping(midiOut: inout JACKMIDIOutput) {}

    func prepareHandler(sampleRate: Double, maximumFrames: Int) {}

    func handlerLatency() -> Int { 0 }

    /// JACK's latency callback (a notification thread): the path midi_in → outputs is
    /// `handlerLatency()` frames longer than the period, so the outputs' capture latency is midi_in's
    /// plus that, and midi_in's playback latency is the outputs' plus that. Skipped while the control
    /// thread changes the graph (``JACKGraphCallGate``), which then has the callbacks run again.
    func updateLatency(mode: Int32) {
        graphCalls.latencyCallback(mode: mode) { setLatency(mode: mode) }
    }

    /// The latency callback's work for `mode`; also the control thread's, inside the gate
    /// (``JACKClient/payLatencyDebt()``).
    func setLatency(mode: Int32) {
        let extra = UInt32(clamping: max(0, handlerLatency()))
        var range = pj_jack_latency_range_t()
        if mode == Int32(PJJackCaptureLatency) {
            pj_jack_port_get_latency_range(midiInPort, mode, &range)
            var out = pj_jack_latency_range_t(min: range.min &+ extra, max: range.max &+ extra)
            for port in [leftPort, rightPort, midiOutPort] { pj_jack_port_set_latency_range(port, mode, &out) }
        } else {
            var low = UInt32.max, high: UInt32 = 0
            for port in [leftPort, rightPort] {
                pj_jack_port_get_latency_range(port, mode, &range)
                low = min(low, range.min)
                high = max(high, range.max)
            }
            var input = pj_jack_latency_range_t(min: min(low, high) &+ extra, max: high &+ extra)
            pj_jack_port_set_latency_range(midiInPort, mode, &input)
        }
    }

    var statistics: JACKClientStatistics {
        let count = periods.load(ordering: .relaxed)
        return JACKClientStatistics(
            xruns: xruns.load(ordering: .relaxed),
            periods: count,
            frames: frames.load(ordering: .relaxed),
            longestCallbackNanoseconds: longestCallback.load(ordering: .relaxed),
            averageCallbackNanoseconds: count > 0 ? totalCallback.load(ordering: .relaxed) / count : 0,
            midiOutputDropped: midiOutputDropped.load(ordering: .relaxed),
            midiInputLost: midiInputLost.load(ordering: .relaxed),
            silencedPeriods: silencedPeriods.load(ordering: .relaxed),
            skippedPeriods: skippedPeriods.load(ordering: .relaxed),
            reprepareCount: reprepareCount.load(ordering: .relaxed)
        )
    }

    // MARK: Audio thread

    /// One JACK period. Never allocates, locks, logs or throws.
    final func process(_ nframes: UInt32) -> Int32 {
        let started = pj_monotonic_nanoseconds()
        let timingMark = timing?.begin(client: client, periodFrames: nframes)
        let fpu = FlushToZero.enable()
        let n = Int(nframes)
        guard let leftRaw = pj_jack_port_get_buffer(leftPort, nframes),
              let rightRaw = pj_jack_port_get_buffer(rightPort, nframes) else {
            FlushToZero.restore(fpu)
            return 0
        }
        let left = leftRaw.assumingMemoryBound(to: Float.self)
        let right = rightRaw.assumingMemoryBound(to: Float.self)
        left.update(repeating: 0, count: n)
        right.update(repeating: 0, count: n)
        let midiOutBuffer = pj_jack_port_get_buffer(midiOutPort, nframes)
        pj_jack_midi_clear_buffer(midiOutBuffer)
        let midiInBuffer = pj_jack_port_get_buffer(midiInPort, nframes)

        inProcess.store(true, ordering: .sequentiallyConsistent)
        let phase = stopPhase.load(ordering: .acquiring)
        if phase < 2, !preparing.load(ordering: .sequentiallyConsistent),
           n <= preparedFrames.load(ordering: .relaxed) {
            let periodStart = client.map { pj_jack_last_frame_time($0) }
            if let periodStart { periodClock.publish(frame: periodStart, nanoseconds: started) }
            let input = JACKMIDIInput(portBuffer: midiInBuffer, count: Int(pj_jack_midi_get_event_count(midiInBuffer)),
                                      periodStartFrame: periodStart)
            var output = midiStorage.makeOutput(frameCount: n)
            render(frameCount: n, left: left, right: right, midiIn: input, midiOut: &output)
            if !Self.isFinite(left, n) || !Self.isFinite(right, n) {
                left.update(repeating: 0, count: n)
                right.update(repeating: 0, count: n)
                silencedPeriods.add(1, ordering: .relaxed)
            }
            if phase == 1 {
                // The last period fades to silence so that stopping never clicks.
                let step = 1 / Float(n)
                for i in 0..<n {
                    let gain = Float(n - 1 - i) * step
                    left[i] *= gain
                    right[i] *= gain
                }
                renderStopping(midiOut: &output)
                output.releaseAllSoundingNotes(atFrame: n - 1)
            }
            let refused = output.flush { frame, bytes in
                pj_jack_midi_event_write(midiOutBuffer, frame, bytes.baseAddress, bytes.count) == 0
            }
            let dropped = refused + output.droppedCount
            if dropped > 0 { midiOutputDropped.add(dropped, ordering: .relaxed) }
        } else if phase < 2 {
            skippedPeriods.add(1, ordering: .relaxed)
            if phase == 1 {
                // Stopping while the handler cannot run: still end what was sounding.
                var output = midiStorage.makeOutput(frameCount: n)
                output.releaseAllSoundingNotes(atFrame: n - 1)
                let refused = output.flush { frame, bytes in
                    pj_jack_midi_event_write(midiOutBuffer, frame, bytes.baseAddress, bytes.count) == 0
                }
                if refused + output.droppedCount > 0 {
                    midiOutputDropped.add(refused + output.droppedCount, ordering: .relaxed)
                }
            }
        }
        inProcess.store(false, ordering: .sequentiallyConsistent)
        if phase == 1 { stopPhase.store(2, ordering: .releasing) }

        let lost = Int(pj_jack_midi_get_lost_event_count(midiInBuffer))
        if lost > 0 { midiInputLost.add(lost, ordering: .relaxed) }
        FlushToZero.restore(fpu)
        if let timing, let timingMark { timing.end(timingMark, wallStart: started) }
        let elapsed = Int(pj_monotonic_nanoseconds() &- started)
        periods.add(1, ordering: .relaxed)
        frames.add(n, ordering: .relaxed)
        totalCallback.add(elapsed, ordering: .relaxed)
        if elapsed > longestCallback.load(ordering: .relaxed) {
            longestCallback.store(elapsed, ordering: .relaxed)
        }
        return 0
    }

    /// True when every sample is finite: x·0 is NaN exactly for NaN and ±∞, and the sum keeps it.
    @inline(__always)
    static func isFinite(_ buffer: UnsafeMutablePointer<Float>, _ count: Int) -> Bool {
        var probe: Float = 0
        for i in 0..<count { probe += buffer[i] * 0 }
        return probe == 0
    }

    // MARK: Notification threads

    /// Prepares the handler for a new sample rate or period size while `process` is kept out.
    final func reprepare(sampleRate: Int, maximumFrames: Int) {
        guard sampleRate != preparedSampleRate.load(ordering: .relaxed)
                || maximumFrames != preparedFrames.load(ordering: .relaxed) else { return }
        preparing.store(true, ordering: .sequentiallyConsistent)
        // A period already inside the handler finishes it (later ones see `preparing` and skip it);
        // prepare never runs beside a period, so this waits for as long as that takes (no timeout
        // that would prepare anyway), unless the server died with the period.
        while inProcess.load(ordering: .sequentiallyConsistent) && !serverGone.load(ordering: .acquiring) {
            usleep(200)
        }
        prepareHandler(sampleRate: Double(sampleRate), maximumFrames: maximumFrames)
        preparedSampleRate.store(sampleRate, ordering: .relaxed)
        preparedFrames.store(maximumFrames, ordering: .relaxed)
        reprepareCount.add(1, ordering: .relaxed)
        preparing.store(false, ordering: .sequentiallyConsistent)
    }

    final func serverShutDown(reason: UnsafePointer<CChar>?) {
        if let reason {
            strncpy(shutdownReason, reason, Self.reasonCapacity - 1)
        } else {
            strncpy(shutdownReason, "the server shut down", Self.reasonCapacity - 1)
        }
        serverGone.store(true, ordering: .releasing)
    }
}

/// The state of an activation with a handler of concrete type `Handler`.
final class JACKHandlerState<Handler: JACKProcessHandler>: JACKRealtimeState, @unchecked Sendable {
    let handler: Handler

    init(
        handler: Handler, client: OpaquePointer?, leftPort: OpaquePointer, rightPort: OpaquePointer, midiOutPort: OpaquePointer,
        midiInPort: OpaquePointer, midiStorage: JACKMIDIOutputStorage, graphCalls: JACKGraphCallGate,
        timing: JACKCallbackTiming? = nil
    ) {
        self.handler = handler
        super.init(
            client: client, leftPort: leftPort, rightPort: rightPort, midiOutPort: midiOutPort,
            midiInPort: midiInPort, midiStorage: midiStorage, graphCalls: graphCalls, timing: timing
        )
    }

    override func render(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        handler.process(frameCount: frameCount, left: left, right: right, midiIn: midiIn, midiOut: &midiOut)
    }

    override func renderStopping(midiOut: inout JACKMIDIOutput) {
        handler.stopping(midiOut: &midiOut)
    }

    override func prepareHandler(sampleRate: Double, maximumFrames: Int) {
        handler.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames)
    }

    override func handlerLatency() -> Int { handler.processingLatency }
}

// MARK: - C callbacks (state travels through `arg`)

let jackProcessCallback: pj_jack_process_callback = { nframes, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { $0.process(nframes) }
}

let jackXrunCallback: pj_jack_xrun_callback = { arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef {
        _ = $0.xruns.add(1, ordering: .relaxed)
        $0.timing?.xrunOccurred()
    }
    return 0
}

let jackPortConnectCallback: pj_jack_port_connect_callback = { a, b, connect, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { state in
        _ = state.graphChanges.add(1, ordering: .relaxed)
        if connect != 0 { state.connectNotices.connected(a, b) }
    }
}

let jackBufferSizeCallback: pj_jack_nframes_callback = { nframes, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { state in
        let rate = state.preparedSampleRate.load(ordering: .relaxed)
        if rate > 0 { state.reprepare(sampleRate: rate, maximumFrames: Int(nframes)) }
    }
    return 0
}

let jackSampleRateCallback: pj_jack_nframes_callback = { rate, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { state in
        let frames = state.preparedFrames.load(ordering: .relaxed)
        if frames > 0 { state.reprepare(sampleRate: Int(rate), maximumFrames: frames) }
    }
    return 0
}

let jackInfoShutdownCallback: pj_jack_info_shutdown_callback = { _, reason, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { $0.serverShutDown(reason: reason) }
}

let jackLatencyCallback: pj_jack_latency_callback = { mode, arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { $0.updateLatency(mode: mode) }
}

let jackShutdownCallback: pj_jack_shutdown_callback = { arg in
    Unmanaged<JACKRealtimeState>.fromOpaque(arg!)._withUnsafeGuaranteedRef { $0.serverShutDown(reason: nil) }
}
