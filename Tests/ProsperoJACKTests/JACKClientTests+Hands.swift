import Ariel
import Enobarbus
import EnobarbusUDP
import Foundation
import Glibc
import Horatio
import Prospero
import ProsperoJACK
import Synchronization
import ProsperoTestSupport
import Testing

/// End to end: python-osc sends `/prospero/hand` frames over UDP, `HandsPerformer` routes them, a
/// `QueuedMIDIHandler` carries the MIDI through its ring into Prospero's `midi_out`, and
/// jack_midi_dump prints what arrived. Part of the serialized JACK suite.
extension JACKClientTests {
    static var pythonOSC: Bool { TestPeers.python(module: "pythonosc") }

    /// Sends hand 0 at palm-centre heights 9.5/11 (zone 9 → A4 69) then 5.5/11 (zone 5 → C4 60),
    /// three frames each, then `/prospero/hand/end 0`. Landmarks as in examples/hands-scale.py.
    static let handSender = """
        import sys, time
        from pythonosc.udp_client import SimpleUDPClient
        c = SimpleUDPClient("127.0.0.1", int(sys.argv[1]))
        def lm(cx, cy):
            p = [None] * 21
            p[0] = (cx, cy + 0.06)
            for f, dx in {1: -0.045, 2: -0.015, 3: 0.015, 4: 0.045}.items():
                m = 1 + 4 * f
                p[m] = (cx + dx, cy - 0.015); p[m + 1] = (cx + dx, cy - 0.045)
                p[m + 2] = (cx + dx, cy - 0.06); p[m + 3] = (cx + dx, cy - 0.085)
            p[1] = (cx - 0.03, cy + 0.04); p[2] = (cx - 0.05, cy + 0.02); p[3] = (cx - 0.07, cy); p[4] = (cx - 0.11, cy - 0.01)
            out = []
            for x, y in p: out += [float(x), float(y), 0.0]
            return out
        for height in (9.5 / 11, 5.5 / 11):
            for _ in range(3):
                c.send_message("/prospero/hand", [0, "right", 0.95] + lm(0.4, 1 - height))
                time.sleep(0.03)
        c.send_message("/prospero/hand/end", [0])
        """

    /// The python sender's frames, 30 ms apart in its own time. The receiving side (the frame assembler's quiet close,
    /// the performer's hand timeout) runs on that time, packet by packet, not on when the packets arrived: a busy
    /// machine that holds the sender back for longer than the hand's timeout would otherwise rightly end the note and
    /// play it again, and the test judges what the gestures make, not how the machine paced them.
    static let handFrameInterval = 0.03

    @Test(.enabled(if: Peers.runnable("jackd", "jack_midi_dump", "python3") && (Peers.required || pythonOSC)))
    func handsOverOSCPlayMIDIThatReachesMidiDump() throws {
        try TestPeers.require(Self.pythonOSC, "python-osc (pip install python-osc; scripts/deps/prospero.pip)")
        let run = try Self.playHandsIntoMidiDump()
        // x 0.4 → CC74 round(50.8) = 51; five fingers → CC11 127 and velocity 127; zone 9 → 69, zone 5 → 60.
        #expect(run.sent == [[0xB0, 74, 51], [0xB0, 11, 127], [0x90, 69, 127], [0x80, 69, 0], [0x90, 60, 127],
                             [0x80, 60, 0], [0xB0, 123, 0]], "\(run.packets) packets")
        #expect(run.received == run.sent, "\(run.received)")
        #expect(run.handlerDropped == 0)
        #expect(run.outputDropped == 0)
    }

    /// One run of ``handsOverOSCPlayMIDIThatReachesMidiDump()``: what the performer sent and what jack_midi_dump printed.
    struct HandsOSCRun {
        var sent: [[UInt8]]
        var received: [[UInt8]]
        /// How many packets arrived.
        var packets: Int
        var handlerDropped: Int
        var outputDropped: Int
    }

    static func playHandsIntoMidiDump() throws -> HandsOSCRun {
        // 1024-frame periods, as the recording tests: what is tested here is which messages arrive, not when.
        let server = try JACKTestServer(period: 1024)
        let dump = DumpReader(try server.peer("jack_midi_dump", ["-a", "dump"]))
        let client = try JACKClient(configuration: server.configuration)
        try waitUntil("dump:input") { client.portInfo(named: "dump:input") != nil }
        let handler = QueuedMIDIHandler()
        try client.activate(handler: handler)
        // The connect returns once the connection carries MIDI (JACKClient.connect waits for it).
        try waitUntil("dump to accept a connection") { (try? client.connect(client.ports.midiOutput, to: "dump:input")) != nil }

        let inbox = Mutex<[ReceivedOSCPacket]>([])
        let receiver = try OSCUDPReceiver.bind(port: 0, bufferLimit: 0) { packet in inbox.withLock { $0.append(packet) } }.wait()
        let sender = try server.peer("python3", ["-c", Self.handSender, "\(receiver.localPort)"])
        var performer = try HandsPerformer(settings: MIDIRouterSettings(), stabilizes: false)
        var assembler = OSCFrameAssembler()
        var sent: [[UInt8]] = []
        var ended = false
        var packets = 0
        try waitUntil("the hand to end") {
            for packet in inbox.withLock({ q in defer { q.removeAll() }; return q }) {
                // Each packet at its time in the sender's frames, then the assembler's quiet close before the next.
                let time = Double(packets) * Self.handFrameInterval
                packets += 1
                for (at, frames) in [(time, assembler.ingest(packet.packet, at: time)),
                                     (time + Self.handFrameInterval / 2, assembler.flush(now: time + Self.handFrameInterval / 2))] {
                    if frames.contains(where: { if case .ended = $0 { return true } else { return false } }) { ended = true }
                    for m in performer.ingest(frames, at: at) {
                        let short = m.message.shortMessage!
                        sent.append(short.bytes)
                        #expect(handler.send(short))
                    }
                }
            }
            return ended
        }
        for m in performer.stop(at: Double(packets) * Self.handFrameInterval) {
            sent.append(m.message.shortMessage!.bytes)
            handler.send(m.message.shortMessage!)
        }
        try waitUntil("the sender to exit") { !sender.process.isRunning }
        // A few periods for the ring to drain, counted in periods.
        let periods = client.statistics.periods
        try waitUntil("four periods after the last message") { client.statistics.periods >= periods + 4 }
        let statistics = client.statistics
        client.close()
        try receiver.close().wait()
        // jack_midi_dump prints from its own loop, which a busy machine holds back.
        _ = try? waitUntil("the dump to print what was sent") { Self.parseDump(dump.current()).count >= sent.count }
        return HandsOSCRun(sent: sent, received: Self.parseDump(dump.stop()).map(\.bytes), packets: packets,
                           handlerDropped: handler.droppedCount, outputDropped: statistics.midiOutputDropped)
    }
}
