import CJACKLoader
import Synchronization

/// A JACK client of the tests with one audio input and one MIDI input that counts where sound starts: the first
/// sample at or above `onsetLevel` after at least one whole period below `quietLevel`; ``quiet`` says whether the
/// last whole period was below `quietLevel`. Its process callback allocates nothing. (The live latency figures are
/// measured by `prospero-jack-bench`'s own probe, in frames.)
final class LatencyProbe: @unchecked Sendable {
    let client: OpaquePointer
    let name: String
    private let audioPort: OpaquePointer
    let onsetLevel: Float
    let quietLevel: Float
    let onsetCount = Atomic<Int>(0)
    let quiet = Atomic<Bool>(true)
    private var armed = true  // a whole quiet period has passed since the last onset

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
        // A MIDI input a command may send to (its --midi-out), so that its MIDI goes nowhere else.
        _ = pj_jack_port_register(opened, "midi", "8 bit raw midi", UInt(PJJackPortIsInput), 0)
        self.onsetLevel = onsetLevel
        self.quietLevel = quietLevel
        let arg = Unmanaged.passUnretained(self).toOpaque()
        _ = pj_jack_set_process_callback(opened, { nframes, arg in
            Unmanaged<LatencyProbe>.fromOpaque(arg!).takeUnretainedValue().process(nframes)
            return 0
        }, arg)
        guard pj_jack_activate(opened) == 0 else { throw OpenFailed(status: -2) }
    }

    deinit { close() }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        _ = pj_jack_deactivate(client)
        _ = pj_jack_client_close(client)
    }

    var audioInput: String { "\(name):audio" }
    var midiInput: String { "\(name):midi" }

    func connect(_ source: String, to destination: String) -> Bool {
        source.withCString { s in destination.withCString { d in pj_jack_connect(client, s, d) == 0 } }
    }

    private func process(_ nframes: UInt32) {
        guard let raw = pj_jack_port_get_buffer(audioPort, nframes) else { return }
        let samples = raw.assumingMemoryBound(to: Float.self)
        var peak: Float = 0
        for i in 0..<Int(nframes) {
            let level = abs(samples[i])
            peak = max(peak, level)
            if armed && level >= onsetLevel {
                onsetCount.add(1, ordering: .releasing)
                armed = false
            }
        }
        if peak < quietLevel { armed = true }
        quiet.store(peak < quietLevel, ordering: .relaxed)
    }
}
