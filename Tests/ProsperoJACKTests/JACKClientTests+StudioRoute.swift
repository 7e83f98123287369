import Foundation
import Glibc
import ProsperoJACK
import ProsperoTestSupport
import Testing

// Nested in JACKClientTests: one jackd at a time in this process (see there).
extension JACKClientTests {
    /// `prospero studio --audio jack` follows JACK as `prospero hecate` does: a playback port given a Bluetooth
    /// sink's alias (`jack_alias`) and connected to the studio's output (`jack_connect`) moves Hecate's route and
    /// limiter ceiling and the pages' audio status; disconnected (`jack_disconnect`), back to wired. And the latency
    /// the studio reports, on its JACK ports and to the pages, is the active instrument's.
    @Suite("The studio follows JACK: output route and latency", .serialized, .ownThread)
    struct StudioRouteTests {
        /// A studio on `server` with a page's socket (subscribed to state and status).
        struct StudioUnderTest {
            let process: ProsperoOnJACK
            let socket: RawClient

            init(_ server: JACKTestServer, client: String, log: String) throws {
                process = try ProsperoOnJACK(["studio", "--audio", "jack", "--no-settings", "--no-qr", "--client-name", client,
                                              "--port", "0", "--osc-port", "0"], server: server, log: log)
                try process.waitForLine(containing: "playback latency")
                try process.waitForLine(containing: "Ctrl-C to stop")
                let line = try #require(process.output.split(separator: "\n").first { $0.hasPrefix("studio: http://127.0.0.1:") })
                let port = try #require(Int(line.dropFirst("studio: http://127.0.0.1:".count).prefix { $0.isNumber }))
                socket = try RawClient(port: port)
                let host = "127.0.0.1:\(port)"
                #expect(try socket.upgrade(host: host, origin: "http://\(host)").status == 101)
                socket.sendText(#"{"type":"hello","client":null,"subscribe":["state","status"]}"#)
                _ = try #require(socket.readJSON(until: { $0["type"] as? String == "welcome" }), "no welcome")
            }

            func send(_ json: String) { socket.sendText(json) }

            /// The next `changed` of `instrument` whose `key` is `value`.
            func changed(_ instrument: String, _ key: String, _ value: String) -> Bool {
                socket.readJSON(until: { m in
                    m["type"] as? String == "changed" && m["instrument"] as? String == instrument
                        && ((m["changes"] as? [String: Any])?[key]).map { "\($0)" } == value
                }) != nil
            }

            /// The next `status` whose audio satisfies `match` (its audio object).
            func status(where match: ([String: Any]) -> Bool) -> [String: Any]? {
                socket.readJSON(until: { m in
                    guard m["type"] as? String == "status", let audio = m["audio"] as? [String: Any] else { return false }
                    return match(audio)
                }).flatMap { $0["audio"] as? [String: Any] }
            }
        }

        func tool(_ server: JACKTestServer, _ name: String, _ arguments: [String]) throws {
            try RouteFollowTests().tool(server, name, arguments)
        }

        @Test("a Bluetooth sink connected: Hecate's route and −14 dBFS, pushed to the page; disconnected: wired; a chosen route stays",
              .enabled(if: Peers.runnable("jackd", "jack_alias", "jack_connect", "jack_disconnect")))
        func studioFollowsTheRoute() throws {
            let server = try JACKTestServer()
            defer { server.stop() }
            let studio = try StudioUnderTest(server, client: "RouteStudio", log: "studio-route")
            #expect(studio.process.output.contains("studio: output route: no bluetooth"), "\(studio.process.output)")
            studio.send(#"{"type":"select","instrument":"hecate"}"#)
            studio.send(#"{"type":"set","path":"hecate.playAlong","value":true}"#)
            #expect(studio.changed("hecate", "playAlong", "1"), "play-along on")
            #expect(studio.status { ($0["route"] as? String)?.hasPrefix("no bluetooth") == true } != nil, "the wired route in the status")
            // The session's own connections settle first (one re-detection, still wired: nothing printed).
            usleep(500_000)
            #expect(!studio.process.output.contains("output route now"), "\(studio.process.output)")

            try tool(server, "jack_alias", ["system:playback_1", "bluez_output.14_3F_A6_28_DC_51.1:playback_FL"])
            try tool(server, "jack_disconnect", ["RouteStudio:out_left", "system:playback_1"])
            try tool(server, "jack_connect", ["RouteStudio:out_left", "system:playback_1"])
            try studio.process.waitForLine(containing: "studio: output route now: bluetooth sink (bluez_output.14_3F_A6_28_DC_51.1:playback_FL); "
                                           + "hecate limiter -14 dBFS")
            #expect(studio.changed("hecate", "route", "bluetooth"), "the page hears Hecate's new route")
            #expect(studio.status { ($0["route"] as? String)?.hasPrefix("bluetooth sink (bluez_output.14_3F_A6_28_DC_51.1") == true } != nil,
                    "the pushed status names the sink")

            try tool(server, "jack_disconnect", ["RouteStudio:out_left", "system:playback_1"])
            try studio.process.waitForLine(containing: "studio: output route now: no bluetooth (system:playback_2): wired; hecate limiter -10 dBFS")
            #expect(studio.changed("hecate", "route", "wired"), "back to wired on the page")
            #expect(studio.status { ($0["route"] as? String) == "no bluetooth (system:playback_2): wired" } != nil, "the status follows")

            // A route chosen on the page is the person's: detection reports, Hecate keeps it.
            studio.send(#"{"type":"set","path":"hecate.route","value":"speaker"}"#)
            #expect(studio.changed("hecate", "route", "speaker"))
            try tool(server, "jack_connect", ["RouteStudio:out_left", "system:playback_1"])
            try studio.process.waitForLine(containing: "studio: output route now: bluetooth sink (bluez_output.14_3F_A6_28_DC_51.1:playback_FL); "
                                           + "hecate keeps its chosen route (speaker)")
            #expect(studio.process.output.components(separatedBy: "output route now:").count == 4, "\(studio.process.output)")
            #expect(try studio.process.stop() == 0, "\(studio.process.output)")
        }

        /// Frames of processing latency in a studio latency line ("… sound N frames (…)"), and the whole path.
        static func soundFrames(_ line: Substring) -> Int? {
            guard let r = line.range(of: "MIDI in → sound ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }

        @Test("the latency on the studio's JACK ports, printed and pushed to the pages, is the active instrument's",
              .enabled(if: Peers.runnable("jackd")))
        func studioLatencyFollowsTheInstrument() throws {
            let server = try JACKTestServer()
            defer { server.stop() }
            let studio = try StudioUnderTest(server, client: "LatencyStudio", log: "studio-latency")
            let probe = try JACKClient(configuration: server.configuration(client: "probe"))
            defer { probe.close() }
            // The outputs' capture latency is midi_in's (nothing feeds it: 0) plus the engine's look-ahead.
            func lookAhead() -> Int? { probe.latencyRange(of: "LatencyStudio:out_left", playback: false)?.upperBound }
            let period = 256
            let playback = try #require(probe.latencyRange(of: "LatencyStudio:out_left", playback: true)).upperBound
            // The test tone, active at start, has none: the path is one period and the playback.
            #expect(lookAhead() == 0)
            #expect(studio.process.output.contains("MIDI in → sound \(period + playback) frames"), "\(studio.process.output)")

            var seen: [String: Int] = [:]
            for instrument in ["hecate", "tone", "hands"] {
                let linesBefore = studio.process.output.split(separator: "\n").count
                studio.send(#"{"type":"select","instrument":"\#(instrument)"}"#)
                // A limiter's look-ahead is at least its 1 ms window; the tone has none.
                let expectsLookAhead = instrument != "tone"
                try waitUntil("\(instrument)'s latency on the ports") {
                    (lookAhead() ?? 0 > 0) == expectsLookAhead && (!expectsLookAhead || lookAhead()! >= 48)
                }
                let frames = try #require(lookAhead())
                seen[instrument] = frames
                let path = period + frames + playback
                if instrument != "tone" {
                    // Printed when it changed, with the engine's processing in the path.
                    // Among the lines printed since the choice: Hands' path equals Hecate's (the same limiter), so the
                    // line printed for Hecate must not count for Hands.
                    func printed() -> Substring? {
                        studio.process.output.split(separator: "\n").dropFirst(linesBefore).first { $0.contains("MIDI in → sound") }
                    }
                    try waitUntil("\(instrument)'s latency line") { printed() != nil }
                    let line = printed()
                    #expect(line.flatMap(Self.soundFrames) == path && line?.contains("+ processing") == true, "\(studio.process.output)")
                }
                let milliseconds = (Double(path) / 48_000 * 1000 * 100).rounded() / 100
                #expect(studio.status { ($0["latencyMs"] as? Double) == milliseconds } != nil,
                        "\(instrument): the pages' latency \(milliseconds) ms (\(path) frames)")
            }
            #expect(seen["tone"] == 0)
            #expect(try studio.process.stop() == 0, "\(studio.process.output)")
        }
    }
}
