import CJACKLoader
import Synchronization

/// A JACK client of the gesture bench with one MIDI output: asked to (``request(note:)``), its process
/// callback writes a note-on at the period's first frame and records that frame time, so MIDI in → sound
/// is measured in JACK frames from the exact frame the note entered the graph. A client of its own (not
/// `LatencyProbe`), so the graph has no cycle: this → the instrument's `midi_in`, its `out_left` → the probe.
final class MIDINoteProbe: @unchecked Sendable {
    let client: OpaquePointer
    let name: String
    private let port: OpaquePointer
    /// The note to send next period with its velocity (0: nothing), and the frame time it was sent at.
    private let requested = Atomic<Int>(0)
    private let sentFrame = Atomic<UInt32>(0)
    let sentCount = Atomic<Int>(0)

    init(serverName: String, clientName: String = "MIDINoteProbe") throws {
        guard pj_jack_load() == 0 else { throw LatencyProbe.OpenFailed(status: -1) }
        var status: Int32 = 0
        guard let opened = clientName.withCString({ n in
            serverName.withCString { pj_jack_client_open(n, Int32(PJJackNoStartServer), &status, $0) }
        }) else { throw LatencyProbe.OpenFailed(status: status) }
        client = opened
        name = String(cString: pj_jack_get_client_name(opened))
        port = pj_jack_port_register(opened, "midi_out", "8 bit raw midi", UInt(PJJackPortIsOutput), 0)!
        let arg = Unmanaged.passUnretained(self).toOpaque()
        _ = pj_jack_set_process_callback(opened, { nframes, arg in
            Unmanaged<MIDINoteProbe>.fromOpaque(arg!).takeUnretainedValue().process(nframes)
            return 0
        }, arg)
        guard pj_jack_activate(opened) == 0 else { throw LatencyProbe.OpenFailed(status: -2) }
    }

    private var closed = false

    func close() {
        guard !closed else { return }
        closed = true
        _ = pj_jack_deactivate(client)
        _ = pj_jack_client_close(client)
    }

    deinit { close() }

    var output: String { "\(name):midi_out" }

    func connect(to destination: String) -> Bool {
        output.withCString { s in destination.withCString { d in pj_jack_connect(client, s, d) == 0 } }
    }

    /// Sends a note-on (velocity > 0) or note-off (velocity 0) on channel 1 at the next period's first frame.
    func request(note: UInt8, velocity: UInt8) {
        requested.store(0x1_0000 | Int(note) << 8 | Int(velocity), ordering: .releasing)
    }

    /// The frame time of the latest note sent.
    var lastSentFrame: UInt32 { sentFrame.load(ordering: .acquiring) }

    private func process(_ nframes: UInt32) {
        guard let buffer = pj_jack_port_get_buffer(port, nframes) else { return }
        pj_jack_midi_clear_buffer(buffer)
        let request = requested.exchange(0, ordering: .acquiring)
        guard request != 0 else { return }
        let velocity = UInt8(request & 0x7F), note = UInt8((request >> 8) & 0x7F)
        var bytes: (UInt8, UInt8, UInt8) = (velocity > 0 ? 0x90 : 0x80, note, velocity)
        withUnsafeBytes(of: &bytes) { raw in
            _ = pj_jack_midi_event_write(buffer, 0, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
        }
        sentFrame.store(pj_jack_last_frame_time(client), ordering: .releasing)
        sentCount.add(1, ordering: .releasing)
    }
}
