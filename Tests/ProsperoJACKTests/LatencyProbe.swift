import CJACKLoader
import ProsperoTestSupport
import Synchronization

/// A JACK client of the latency test: one audio input and one MIDI input, recording in JACK frame
/// time (the frame clock every client of the server shares) when sound starts and when note-ons
/// arrive. Its process callback allocates nothing; results are read after the measurement.
///
/// Sound starts at the first sample at or above `onsetLevel` after at least one whole period below
/// `quietLevel`; ``isQuiet`` says whether the last whole period was below `quietLevel`.
final class LatencyProbe: @unchecked Sendable {
    let client: OpaquePointer
    let name: String
    private let audioPort: OpaquePointer
    private let midiPort: OpaquePointer
    let onsetLevel: Float
    let quietLevel: Float
    static let capacity = 1024
    private let onsets = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    private let noteOns = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    let onsetCount = Atomic<Int>(0)
    let noteOnCount = Atomic<Int>(0)
    let quiet = Atomic<Bool>(true)
    let xruns = Atomic<Int>(0)
    /// The server's cadence: each period's start in wall time (µs, monotonic) minus its frame time in µs.
    /// Its spread over a window is how far the frame clock strayed from real time (a driver that fell
    /// behind and caught up with periods in a burst); reset by ``takeCadenceSpread()``.
    private let lowestLag = Atomic<Int>(.max)
    private let highestLag = Atomic<Int>(.min)
    private let lastLag = Atomic<Int>(0)
    private var armed = true  // a whole quiet period has passed since the last onset

    /// Waits (at most `timeout` of the machine's time) until the last whole period was quiet, before event `event`.
    /// Returns false when it was not, but an xrun came since `xrunsSince` (the previous event's count, or when
    /// the wait began): an xrun can lose the last note-off in the graph, or drop this probe from it, so the run
    /// is disturbed and made again. Without an xrun a sound that never ends is the program's fault: it throws.
    func waitForSilence(before event: Int, timeout: Double, xrunsSince previous: Int?) throws -> Bool {
        let atStart = xruns.load(ordering: .relaxed)
        do {
            try waitUntil("silence before event \(event)", deadline: MachineDeadline(seconds: timeout)) { quiet.load(ordering: .relaxed) }
            return true
        } catch {
            let now = xruns.load(ordering: .relaxed)
            guard now != atStart || previous.map({ now != $0 }) == true else { throw error }
            return false
        }
    }

    struct OpenFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "the latency probe could not open a JACK client (status \(status))" }
    }

    init(serverName: String, clientName: String = "LatencyProbe", onsetLevel: Float = 1e-3, quietLevel: Float = 1e-4) throws {
        guard pj_jack_load() == 0 else { throw OpenFailed(status: -1) }
        var status: Int32 = 0
        guard let opened = clientName.withCString({ n in
            serverName.withCString { pj_jack_client_open(n, Int32(PJJackNoStartServer), &status, $0) }
        }) else { throw OpenFailed(status: status) }
        client = opened
        name = String(cString: pj_jack_get_client_name(opened))
        audioPort = pj_jack_port_register(opened, "audio", "32 bit float mono audio", UInt(PJJackPortIsInput), 0)!
        midiPort = pj_jack_port_register(opened, "midi", "8 bit raw midi", UInt(PJJackPortIsInput), 0)!
        self.onsetLevel = onsetLevel
        self.quietLevel = quietLevel
        let arg = Unmanaged.passUnretained(self).toOpaque()
        _ = pj_jack_set_process_callback(opened, { nframes, arg in
            Unmanaged<LatencyProbe>.fromOpaque(arg!).takeUnretainedValue().process(nframes)
            return 0
        }, arg)
        _ = pj_jack_set_xrun_callback(opened, { arg in
            Unmanaged<LatencyProbe>.fromOpaque(arg!).takeUnretainedValue().xruns.add(1, ordering: .relaxed)
            return 0
        }, arg)
        guard pj_jack_activate(opened) == 0 else { throw OpenFailed(status: -2) }
    }

    deinit {
        close()
        onsets.deallocate()
        noteOns.deallocate()
    }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        _ = pj_jack_deactivate(client)
        _ = pj_jack_client_close(client)
    }

    var audioInput: String { "\(name):audio" }
    var midiInput: String { "\(name):midi" }

    private let periodSequence = Atomic<Int>(0)
    private let periodFrame = Atomic<UInt32>(0)
    private let periodNanoseconds = Atomic<UInt64>(0)

    /// The frame time now, for stamping a send: the latest period's first frame plus the time since
    /// this client's process callback started it (the audio clock as the audio threads run it, which
    /// is what prospero measures its input against too).
    var frameTimeNow: UInt32 {
        while true {
            let before = periodSequence.load(ordering: .sequentiallyConsistent)
            if before & 1 != 0 { continue }
            let frame = periodFrame.load(ordering: .sequentiallyConsistent)
            let started = periodNanoseconds.load(ordering: .sequentiallyConsistent)
            let now = pj_monotonic_nanoseconds()
            if periodSequence.load(ordering: .sequentiallyConsistent) == before {
                return frame &+ UInt32((Double(now &- started) * 48_000 / 1e9).rounded())
            }
        }
    }

    func connect(_ source: String, to destination: String) -> Bool {
        source.withCString { s in destination.withCString { d in pj_jack_connect(client, s, d) == 0 } }
    }

    /// The upper bound of the playback latency range JACK reports for port `name` (frames).
    func playbackLatency(of port: String) -> Int? {
        guard let p = port.withCString({ pj_jack_port_by_name(client, $0) }) else { return nil }
        var range = pj_jack_latency_range_t()
        pj_jack_port_get_latency_range(p, Int32(PJJackPlaybackLatency), &range)
        return Int(range.max)
    }

    var recordedOnsets: [UInt32] { (0..<onsetCount.load(ordering: .acquiring)).map { onsets[$0] } }
    var recordedNoteOns: [UInt32] { (0..<noteOnCount.load(ordering: .acquiring)).map { noteOns[$0] } }

    /// The spread (µs) of the cadence lag since the last call; 0 before two periods.
    func takeCadenceSpread() -> Int {
        // The next window starts from the latest period, so a stall across its start counts.
        let last = lastLag.load(ordering: .relaxed)
        let low = lowestLag.exchange(last, ordering: .relaxed)
        let high = highestLag.exchange(last, ordering: .relaxed)
        return high >= low ? high - low : 0
    }

    private var frameOrigin: UInt32?

    private func process(_ nframes: UInt32) {
        let startedNanoseconds = pj_monotonic_nanoseconds()
        let start = pj_jack_last_frame_time(client)
        let sequence = periodSequence.load(ordering: .relaxed)
        periodSequence.store(sequence &+ 1, ordering: .sequentiallyConsistent)
        periodFrame.store(start, ordering: .sequentiallyConsistent)
        periodNanoseconds.store(startedNanoseconds, ordering: .sequentiallyConsistent)
        periodSequence.store(sequence &+ 2, ordering: .sequentiallyConsistent)
        // Frames since the first period (wrap-safe) as µs at 48 kHz, against the monotonic clock.
        let origin = frameOrigin ?? start
        frameOrigin = origin
        let lag = Int(Int64(pj_monotonic_nanoseconds() / 1_000) - Int64(start &- origin) * 1_000_000 / 48_000)
        if lag < lowestLag.load(ordering: .relaxed) { lowestLag.store(lag, ordering: .relaxed) }
        if lag > highestLag.load(ordering: .relaxed) { highestLag.store(lag, ordering: .relaxed) }
        lastLag.store(lag, ordering: .relaxed)
        let n = Int(nframes)
        if let raw = pj_jack_port_get_buffer(audioPort, nframes) {
            let samples = raw.assumingMemoryBound(to: Float.self)
            var peak: Float = 0
            for i in 0..<n {
                let level = abs(samples[i])
                peak = max(peak, level)
                if armed && level >= onsetLevel {
                    let count = onsetCount.load(ordering: .relaxed)
                    if count < Self.capacity {
                        onsets[count] = start &+ UInt32(i)
                        onsetCount.store(count + 1, ordering: .releasing)
                    }
                    armed = false
                }
            }
            let isQuiet = peak < quietLevel
            if isQuiet { armed = true }
            quiet.store(isQuiet, ordering: .relaxed)
        }
        if let buffer = pj_jack_port_get_buffer(midiPort, nframes) {
            let events = pj_jack_midi_get_event_count(buffer)
            for index in 0..<events {
                var event = pj_jack_midi_event_t()
                guard pj_jack_midi_event_get(&event, buffer, index) == 0, event.size == 3, let data = event.buffer,
                      data[0] & 0xF0 == 0x90, data[2] > 0 else { continue }
                let count = noteOnCount.load(ordering: .relaxed)
                if count < Self.capacity {
                    noteOns[count] = start &+ event.time
                    noteOnCount.store(count + 1, ordering: .releasing)
                }
            }
        }
    }
}
