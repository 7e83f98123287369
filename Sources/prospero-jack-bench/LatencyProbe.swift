import CJACKLoader
import Synchronization

/// The bench's JACK client: one audio input and one MIDI input, recording in JACK frame time (the frame clock
/// every client of the server shares) when sound starts and when note-ons arrive, and counting the server's
/// xruns. Its process callback allocates nothing; results are read after each event.
///
/// Sound starts at the first sample at or above `onsetLevel` after at least one whole period below
/// `quietLevel`; ``quiet`` says whether the last whole period was below `quietLevel`.
final class LatencyProbe: @unchecked Sendable {
    let client: OpaquePointer
    let name: String
    /// The server's sample rate (Hz) and period (frames).
    let sampleRate: Int
    let period: Int
    private let audioPort: OpaquePointer
    private let midiPort: OpaquePointer
    let onsetLevel: Float
    let quietLevel: Float
    static let capacity = 4096
    private let onsets = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    private let noteOns = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    let onsetCount = Atomic<Int>(0)
    let noteOnCount = Atomic<Int>(0)
    let quiet = Atomic<Bool>(true)
    let xruns = Atomic<Int>(0)
    /// Each period's start in wall time minus its frame time, in µs: its spread over a window is how far the
    /// frame clock strayed from real time (a driver that fell behind and caught up in a burst of periods).
    private let lowestLag = Atomic<Int>(.max)
    private let highestLag = Atomic<Int>(.min)
    private let lastLag = Atomic<Int>(0)
    private var armed = true
    private var frameOrigin: UInt32?
    private let periodSequence = Atomic<Int>(0)
    private let periodFrame = Atomic<UInt32>(0)
    private let periodNanoseconds = Atomic<UInt64>(0)
    private var closed = false

    struct OpenFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String {
            status == -1 ? "libjack could not be loaded" : "the bench could not open a JACK client (status \(status)): is the server running?"
        }
    }

    init(serverName: String, clientName: String = "BenchProbe", onsetLevel: Float = 1e-3, quietLevel: Float = 1e-4) throws {
        guard pj_jack_load() == 0 else { throw OpenFailed(status: -1) }
        var status: Int32 = 0
        guard let opened = clientName.withCString({ n in
            serverName.withCString { pj_jack_client_open(n, Int32(PJJackNoStartServer), &status, $0) }
        }) else { throw OpenFailed(status: status) }
        client = opened
        name = String(cString: pj_jack_get_client_name(opened))
        sampleRate = Int(pj_jack_get_sample_rate(opened))
        period = Int(pj_jack_get_buffer_size(opened))
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

    func close() {
        guard !closed else { return }
        closed = true
        _ = pj_jack_deactivate(client)
        _ = pj_jack_client_close(client)
    }

    var audioInput: String { "\(name):audio" }
    var midiInput: String { "\(name):midi" }
    /// A period in µs.
    var periodMicroseconds: Int { period * 1_000_000 / sampleRate }

    /// The frame time now, for stamping a send: the latest period's first frame plus the time since this
    /// client's callback started it (the audio clock as the audio threads run it, which is what prospero
    /// measures its input against too).
    var frameTimeNow: UInt32 {
        while true {
            let before = periodSequence.load(ordering: .sequentiallyConsistent)
            if before & 1 != 0 { continue }
            let frame = periodFrame.load(ordering: .sequentiallyConsistent)
            let started = periodNanoseconds.load(ordering: .sequentiallyConsistent)
            let now = pj_monotonic_nanoseconds()
            if periodSequence.load(ordering: .sequentiallyConsistent) == before {
                return frame &+ UInt32((Double(now &- started) * Double(sampleRate) / 1e9).rounded())
            }
        }
    }

    /// Frames from `start` to `end` on the server's wrapping frame clock.
    static func frames(from start: UInt32, to end: UInt32) -> Int { Int(Int32(bitPattern: end &- start)) }

    func connect(_ source: String, to destination: String) -> Bool {
        source.withCString { s in destination.withCString { d in pj_jack_connect(client, s, d) == 0 } }
    }

    /// The upper bound of the playback latency range JACK reports for port `port` (frames).
    func playbackLatency(of port: String) -> Int? {
        guard let p = port.withCString({ pj_jack_port_by_name(client, $0) }) else { return nil }
        var range = pj_jack_latency_range_t()
        pj_jack_port_get_latency_range(p, Int32(PJJackPlaybackLatency), &range)
        return Int(range.max)
    }

    func onset(_ index: Int) -> UInt32 { onsets[index] }
    func noteOn(_ index: Int) -> UInt32 { noteOns[index] }

    /// The spread (µs) of the cadence lag since the last call; 0 before two periods.
    func takeCadenceSpread() -> Int {
        // The next window starts from the latest period, so a stall across its start counts.
        let last = lastLag.load(ordering: .relaxed)
        let low = lowestLag.exchange(last, ordering: .relaxed)
        let high = highestLag.exchange(last, ordering: .relaxed)
        return high >= low ? high - low : 0
    }

    private func process(_ nframes: UInt32) {
        let startedNanoseconds = pj_monotonic_nanoseconds()
        let start = pj_jack_last_frame_time(client)
        let sequence = periodSequence.load(ordering: .relaxed)
        periodSequence.store(sequence &+ 1, ordering: .sequentiallyConsistent)
        periodFrame.store(start, ordering: .sequentiallyConsistent)
        periodNanoseconds.store(startedNanoseconds, ordering: .sequentiallyConsistent)
        periodSequence.store(sequence &+ 2, ordering: .sequentiallyConsistent)
        let origin = frameOrigin ?? start
        frameOrigin = origin
        let lag = Int(Int64(startedNanoseconds / 1_000) - Int64(start &- origin) * 1_000_000 / Int64(sampleRate))
        if lag < lowestLag.load(ordering: .relaxed) { lowestLag.store(lag, ordering: .relaxed) }
        if lag > highestLag.load(ordering: .relaxed) { highestLag.store(lag, ordering: .relaxed) }
        lastLag.store(lag, ordering: .relaxed)
        if let raw = pj_jack_port_get_buffer(audioPort, nframes) {
            let samples = raw.assumingMemoryBound(to: Float.self)
            var peak: Float = 0
            for i in 0..<Int(nframes) {
                let level = abs(samples[i])
                peak = max(peak, level)
                if armed && level >= onsetLevel {
                    record(start &+ UInt32(i), into: onsets, count: onsetCount)
                    armed = false
                }
            }
            if peak < quietLevel { armed = true }
            quiet.store(peak < quietLevel, ordering: .relaxed)
        }
        if let buffer = pj_jack_port_get_buffer(midiPort, nframes) {
            for index in 0..<pj_jack_midi_get_event_count(buffer) {
                var event = pj_jack_midi_event_t()
                guard pj_jack_midi_event_get(&event, buffer, index) == 0, event.size == 3, let data = event.buffer,
                      data[0] & 0xF0 == 0x90, data[2] > 0 else { continue }
                record(start &+ event.time, into: noteOns, count: noteOnCount)
            }
        }
    }

    private func record(_ frame: UInt32, into storage: UnsafeMutablePointer<UInt32>, count: borrowing Atomic<Int>) {
        let n = count.load(ordering: .relaxed)
        guard n < Self.capacity else { return }
        storage[n] = frame
        count.store(n + 1, ordering: .releasing)
    }
}
