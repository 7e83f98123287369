import Foundation
import Glibc
import Enobarbus
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// The studio's hands are the adapter `prospero hands` drives (`HandsLiveInstrument`, docs/live-parity.md):
/// what Wekinator's outputs make of them reaches `midi_out` the same from both front ends.
extension JACKClientTests {
    /// What `jack_midi_dump` received of one front end's run, with its log and exit status.
    struct WekinatorHandsRun {
        var received: [[UInt8]]
        var output: String
        var status: Int32
    }

    /// The controllers 20…31 on channel 1 among `messages`.
    static func wekinatorControllers(_ messages: [[UInt8]]) -> [[UInt8]] {
        messages.filter { $0.count == 3 && $0[0] & 0xF0 == 0xB0 && (20...31).contains($0[1]) }
    }

    /// One front end (`prospero hands`, or the studio with its hands chosen and set to `midi`) on a fresh server,
    /// its `midi_out` at a `jack_midi_dump`; Wekinator's output vectors sent to its OSC port, 20 ms apart. It is
    /// stopped once the dump printed `expected` controllers (or the wait ended: the test then fails on what came).
    static func playWekinatorIntoHands(studio: Bool, vectors: [[Float]], expected: Int) throws -> WekinatorHandsRun {
        let server = try JACKTestServer()
        let probe = try JACKClient(configuration: server.configuration(client: "probe"))
        defer { probe.close() }
        let dump = try server.peer("jack_midi_dump", ["-a", "wekdump"])
        let reader = DumpReader(dump)
        try waitUntil("wekdump:input") { probe.portInfo(named: "wekdump:input") != nil }
        let port = Self.freePort
        let client = studio ? "WekStudioHands" : "WekHands"
        let run: (output: () -> String, stop: () throws -> Int32, keep: AnyObject)
        if studio {
            let studio = try StudioRun(server: server, client: client, oscPort: port, extra: ["--midi-out", "wekdump:input"])
            try studio.select("hands", subscribe: #"["state"]"#, sets: [("hands.output", #""midi""#)])
            run = ({ studio.output }, { try studio.stop() }, studio)
        } else {
            let hands = try ProsperoOnJACK(["hands", "--client-name", client, "--no-connect-audio", "--no-settings", "--port", "\(port)",
                                            "--midi-out", "wekdump:input"], server: server, log: "wekinator-hands")
            try hands.waitForLine(containing: "playback latency")
            run = ({ hands.output }, { try hands.stop() }, hands)
        }
        try waitUntil("\(client):midi_out to reach the dump") {
            probe.portInfo(named: "\(client):midi_out").map { $0.connections.contains("wekdump:input") } ?? false
        }
        let sender = try UDPTestSender()
        for vector in vectors {
            sender.send(SenderTestPackets.wekinatorOutputs(vector), port: port)
            usleep(20_000)
        }
        // The last controllers leave in the next periods.
        _ = try? waitUntil("\(expected) controllers at the dump") {
            wekinatorControllers(parseDump(reader.current()).map(\.bytes)).count >= expected
        }
        let status = try run.stop()
        let received = Self.parseDump(reader.stop()).map(\.bytes).filter { $0.count == 3 }
        return withExtendedLifetime(run.keep) { WekinatorHandsRun(received: received, output: run.output(), status: status) }
    }

    /// Wekinator's outputs play the hands as controllers 20…31 on channel 1, changes only, from `prospero hands`
    /// and from the studio's hands: each front end sends exactly what `WekinatorControlMapping` makes of the
    /// vectors (the repeated vector adds nothing), and the two send the same.
    @Test(.enabled(if: liveStopRunnable && Peers.runnable("jack_midi_dump")))
    func wekinatorOutputsPlayHandsInTheStudioAndTheCLI() throws {
        let vectors: [[Float]] = [[0, 1], [0, 1], [0.5, 1, 0.25], [0.5, 0, 0.25]]
        // What the mapping makes of them, changes only: the controllers' expected messages in order.
        var last: [Int: Int] = [:]
        var expected: [[UInt8]] = []
        for vector in vectors {
            for (controller, value) in WekinatorControlMapping.controllers(vector) where last[controller] != value {
                last[controller] = value
                expected.append([0xB0, UInt8(controller), UInt8(value)])
            }
        }
        var sent: [Bool: [[UInt8]]] = [:]
        for studio in [false, true] {
            let run = try Self.playWekinatorIntoHands(studio: studio, vectors: vectors, expected: expected.count)
            #expect(run.status == 0, "\(run.output)")
            let controllers = Self.wekinatorControllers(run.received)
            #expect(controllers == expected, "\(studio ? "studio" : "prospero hands"): \(run.received)\n\(run.output.suffix(1500))")
            sent[studio] = controllers
        }
        #expect(sent[false] == sent[true])
    }
}
