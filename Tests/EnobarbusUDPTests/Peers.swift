import Foundation
import ProsperoTestSupport
import Testing

/// Real OSC senders used as test peers (scripts/deps/enobarbus.apt and .pip), through the one peer
/// gate (`TestPeers`): a test that needs a missing peer is skipped, or fails under PROSPERO_REQUIRE_PEERS=1.
enum Peers {
    static var python3: String? { TestPeers.executable("python3") }
    static var oscsend: String? { TestPeers.executable("oscsend") }
    static var pythonOSC: Bool { TestPeers.python(module: "pythonosc") }

    /// Enables a test when the peer is present, or when peers are required (it then fails loudly).
    static func enabled(_ available: @autoclosure () -> Bool) -> Bool { TestPeers.enabled(available()) }

    /// Runs `path` with `arguments`, bounded by `timeout`, killed by pid if late.
    static func run(_ path: String, _ arguments: [String], timeout: Double = 20) async throws -> TestPeers.Finished {
        try await TestPeers.run(path, arguments, timeout: timeout)
    }

    /// Runs a python-osc script with `PORT` bound to `port` (through the peer gate).
    static func python(_ script: String, port: Int) async throws {
        let python3 = try TestPeers.require(python3, "python3")
        try TestPeers.require(pythonOSC, "python-osc (pip install python-osc; see scripts/deps/enobarbus.pip)")
        let prelude = """
            from pythonosc.udp_client import SimpleUDPClient
            from pythonosc.osc_message_builder import OscMessageBuilder
            from pythonosc.osc_bundle_builder import OscBundleBuilder, IMMEDIATELY
            PORT = \(port)
            client = SimpleUDPClient("127.0.0.1", PORT)
            def msg(address, *args):
                b = OscMessageBuilder(address=address)
                for a in args:
                    if isinstance(a, tuple): b.add_arg(a[0], a[1])
                    else: b.add_arg(a)
                return b.build()
            def send_bundle(*messages):
                b = OscBundleBuilder(IMMEDIATELY)
                for m in messages: b.add_content(m)
                client.send(b.build())

            """
        let result = try await run(python3, ["-c", prelude + script])
        #expect(result.status == 0, "python-osc sender failed: \(result.output)")
    }

    /// Runs liblo's `oscsend localhost PORT ADDRESS TYPES ARGS…` (through the peer gate).
    static func oscsend(port: Int, _ address: String, _ types: String, _ args: [String]) async throws {
        let oscsend = try TestPeers.require(oscsend, "oscsend (apt-get install liblo-tools; see scripts/deps/enobarbus.apt)")
        let result = try await run(oscsend, ["127.0.0.1", "\(port)", address, types] + args)
        #expect(result.status == 0, "oscsend failed: \(result.output)")
    }
}
