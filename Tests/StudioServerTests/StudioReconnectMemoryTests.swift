import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// Pages reconnect all evening (a phone sleeps, a tab reloads, Wi-Fi drops): each reconnection must leave the
/// server's memory where it was. `scripts/soak studio` found each WebSocket connection's request context kept
/// for good (a retain cycle between the context and hummingbird-websocket's handler reference, about 1.5 KB a
/// connection, never returned); ``StudioWebSocketSlot`` breaks it when the socket ends.
@Suite("Studio reconnections", .serialized, .ownThread)
struct StudioReconnectMemoryTests {
    static let connections = 1_000
    /// Resident growth allowed over the second ``connections`` reconnections: 512 bytes each, a third of what the
    /// cycle kept.
    static let growthLimit = 512 * 1024
    /// A closed socket's auto-ping task keeps its memory until its sleep's deadline (the studio pings every 30 s):
    /// the first thousand's is returned to the heap after this, and the second thousand reuses it.
    static let pingPeriod: UInt32 = 32

    /// One page's visit: the upgrade, `hello` resuming `id` (nil: a new client), the `welcome`, then the socket
    /// dropped without a close (as a phone that sleeps). Returns the client id.
    /// The sockets `pid` holds open (its listeners and connections).
    static func openSockets(of pid: Int32) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))?.hasPrefix("socket:") == true }.count
    }

    static func visit(port: Int, resuming id: String?) throws -> String {
        let socket = try RawClient(port: port)
        let response = try socket.upgrade(host: "127.0.0.1:\(port)", origin: "http://127.0.0.1:\(port)")
        guard response.status == 101 else { throw RawClient.Failure("upgrade answered \(response.status)") }
        socket.sendText(#"{"type":"hello","client":\#(id.map { "\"\($0)\"" } ?? "null"),"subscribe":["state","status"]}"#)
        guard let welcome = socket.readJSON(until: { $0["type"] as? String == "welcome" }), let client = welcome["client"] as? String else {
            throw RawClient.Failure("no welcome")
        }
        return client
    }

    @Test("1 000 reconnections after 1 000 others leave the server's resident memory within 0.5 MB of where it was")
    func reconnectionsLeaveMemoryFlat() throws {
        let (process, log, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-qr", "--no-settings"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = Int(url.split(separator: ":").last!.split(separator: "/").first!)!
        // Eight pages, each coming back as itself (a new id each time would fill the server's client table,
        // which keeps a lost client for a minute).
        var ids: [String?] = Array(repeating: nil, count: 8)
        for k in 0..<Self.connections { ids[k % 8] = try Self.visit(port: port, resuming: ids[k % 8]) }
        sleep(Self.pingPeriod)
        let before = try #require(StudioLoadTests.usage(of: process.processIdentifier))
        let sockets = Self.openSockets(of: process.processIdentifier)
        for k in 0..<Self.connections { ids[k % 8] = try Self.visit(port: port, resuming: ids[k % 8]) }
        // Measured once the server has closed every socket of the visits (a busy machine holds it back).
        try Eventually.holds("the server's sockets closed: \(Self.openSockets(of: process.processIdentifier)) open, \(sockets) before") {
            Self.openSockets(of: process.processIdentifier) <= sockets
        }
        let after = try #require(StudioLoadTests.usage(of: process.processIdentifier))
        print(String(format: "studio reconnections: %d more connections, RSS %.2f → %.2f MB (%+.0f bytes each)", Self.connections,
                     Double(before.rss) / 1_048_576, Double(after.rss) / 1_048_576, Double(after.rss - before.rss) / Double(Self.connections)))
        #expect(after.rss - before.rss < Self.growthLimit, "RSS grew \(after.rss - before.rss) bytes over \(Self.connections) reconnections")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
