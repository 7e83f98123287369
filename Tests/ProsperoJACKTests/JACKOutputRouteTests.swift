import LiveHost
import ProsperoJACK
import Testing

// Nested in JACKClientTests: one jackd at a time in this process (see there).
extension JACKClientTests {
    /// The output route as JACK reports it, on a real jackd: the dummy driver's playback ports are no
    /// Bluetooth sink.
    @Suite("JACK output route", .serialized)
    struct JACKOutputRouteTests {
        @Test("jackd -d dummy: system playback ports, no bluetooth", .enabled(if: Peers.runnable("jackd")))
        func dummyIsNotBluetooth() throws {
            let server = try JACKTestServer()
            defer { server.stop() }
            let ports = try JACKOutputRoute.playbackPorts(serverName: server.name)
            #expect(ports.map(\.name).contains("system:playback_1"), "\(ports)")
            let detected = try JACKOutputRoute.detect(serverName: server.name)
            #expect(detected.route == .wired)
            #expect(detected.summary.hasPrefix("no bluetooth (system:playback_"), "\(detected.summary)")
            // A port nothing is connected to falls back to the physical ones.
            #expect(try JACKOutputRoute.playbackPorts(serverName: server.name, outputs: ["nobody:out"]).map(\.name) == ports.map(\.name))
        }
    }
}
