import Foundation
import Glibc
import ProsperoTestSupport
import Testing

// Nested in JACKClientTests: one jackd at a time in this process (see there).
extension JACKClientTests {
    /// `prospero hecate --play-along` follows where its outputs play while it runs: the dummy driver's
    /// `system:playback_1` is given the alias PipeWire gives a Bluetooth sink (`jack_alias`), and connecting
    /// the left output to it moves the route to Bluetooth (−14 dBFS); disconnecting it moves it back to the
    /// wired −10 dBFS. Connections are made and broken with `jack_connect` and `jack_disconnect`, as a
    /// patchbay (or PipeWire switching the default sink) would.
    @Suite("Hecate follows the output route", .serialized, .ownThread)
    struct RouteFollowTests {
        func tool(_ server: JACKTestServer, _ name: String, _ arguments: [String]) throws {
            let peer = try server.peer(name, arguments)
            try waitUntil(name) { !peer.process.isRunning }
            #expect(peer.process.terminationStatus == 0, "\(name) \(arguments): \(peer.readOutput())")
        }

        @Test("a Bluetooth sink connected while it plays: −14 dBFS; disconnected: back to −10 dBFS",
              .enabled(if: Peers.runnable("jackd", "jack_alias", "jack_connect", "jack_disconnect")))
        func hecateFollowsTheRoute() throws {
            let server = try JACKTestServer()
            defer { server.stop() }
            let hecate = try ProsperoOnJACK(["hecate", "--no-settings", "--play-along", "--client-name", "RouteHecate",
                                             "--port", "\(JACKClientTests.freePort)"], server: server, log: "route-follow")
            try hecate.waitForLine(containing: "playback latency")
            #expect(hecate.output.contains("hecate: output route: no bluetooth"), "\(hecate.output)")
            // The session's own connections settle first (one re-detection, still wired: nothing printed).
            usleep(500_000)
            #expect(!hecate.output.contains("output route now"), "\(hecate.output)")

            try tool(server, "jack_alias", ["system:playback_1", "bluez_output.14_3F_A6_28_DC_51.1:playback_FL"])
            try tool(server, "jack_disconnect", ["RouteHecate:out_left", "system:playback_1"])
            try tool(server, "jack_connect", ["RouteHecate:out_left", "system:playback_1"])
            try hecate.waitForLine(containing: "output route now: bluetooth sink (bluez_output.14_3F_A6_28_DC_51.1:playback_FL); limiter -14 dBFS")

            try tool(server, "jack_disconnect", ["RouteHecate:out_left", "system:playback_1"])
            try hecate.waitForLine(containing: "output route now: no bluetooth (system:playback_2): wired; limiter -10 dBFS")
            #expect(hecate.output.components(separatedBy: "output route now:").count == 3, "\(hecate.output)")
            #expect(try hecate.stop() == 0, "\(hecate.output)")
        }
    }
}
