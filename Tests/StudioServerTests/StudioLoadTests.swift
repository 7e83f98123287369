import Foundation
import Glibc
import ProsperoTestSupport
import Synchronization
import Testing

/// The load test of #15 over loopback, against a real `prospero studio --audio none` (a child process,
/// so that its CPU time and memory are its own): 20 clients each sending 60 controls a second, every
/// client receiving every change. `PROSPERO_STUDIO_LOAD_SECONDS=60` (scripts/studio-load) runs the full
/// minute; it blocks threads of its own for 40 sockets, so it runs only when asked.
///
/// It reports the clients, the messages per second in and out, the round-trip latency (a client's `set`
/// to its own `changed` echo: an upper bound of control → engine, as the command is queued before the
/// broadcast) as median, p90, p99 and maximum, the changes lost and the messages refused, and the
/// server's CPU (user + system, % of one core) and resident memory. It asserts what does not depend on
/// the machine's load: nothing lost or refused, and memory flat (timings are reported, never asserted).
@Suite("Studio load", .serialized, .enabled(if: ProcessInfo.processInfo.environment["PROSPERO_STUDIO_LOAD_SECONDS"] != nil))
struct StudioLoadTests {
    static let clients = 20
    static let rate = 60.0
    /// The server's resident memory may grow this much over the run (the first connections' buffers
    /// and caches warm up; a leak of a message's size per change would pass it within seconds).
    static let memoryGrowthLimit = 24 * 1024 * 1024
    static var seconds: Double { Double(ProcessInfo.processInfo.environment["PROSPERO_STUDIO_LOAD_SECONDS"] ?? "") ?? 2 }

    final class SendTimes: @unchecked Sendable {
        let times = Mutex([Double](repeating: 0, count: 900))
    }

    final class Counter: @unchecked Sendable {
        let value = Atomic<Int>(0)
    }

    final class Latencies: @unchecked Sendable {
        let values = Mutex<[Double]>([])
    }

    /// A process's CPU seconds (user + system) and resident bytes, from /proc.
    static func usage(of pid: Int32) -> (cpu: Double, rss: Int)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "(comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let rssLine = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kB = rssLine.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        return ((user + system) / ticks, kB * 1024)
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    @Test("20 clients × 60 controls/s: nothing lost or refused, every change reaches every client, memory flat; figures reported")
    func load() throws {
        let (process, _, url) = try StudioCommandTests.start(["--port", "0", "--osc-port", "0", "--audio", "none", "--no-qr"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = Int(url.split(separator: ":").last!.split(separator: "/").first!)!
        let host = "127.0.0.1:\(port)", origin = "http://127.0.0.1:\(port)"
        var sockets: [RawClient] = []
        for _ in 0..<Self.clients {
            let socket = try RawClient(port: port)
            #expect(try socket.upgrade(host: host, origin: origin).status == 101)
            socket.sendText(#"{"type":"hello","client":null,"subscribe":["state"]}"#)
            _ = socket.readJSON { $0["type"] as? String == "welcome" }
            sockets.append(socket)
        }
        // The test tone is the active instrument at start (Home's first).
        let latencies = Latencies()
        let received = (0..<Self.clients).map { _ in Counter() }
        let refused = Counter()
        /// When the last `set` left (ms since start): messages in per second are counted over the sending time.
        let lastSend = Atomic<Int>(0)
        let perClient = Int(Self.seconds * Self.rate)
        let expected = perClient * Self.clients
        let done = DispatchGroup()
        let before = try #require(Self.usage(of: process.processIdentifier))
        var peakRSS = before.rss
        let start = Date()
        for (i, socket) in sockets.enumerated() {
            let sent = SendTimes()
            done.enter()
            Thread.detachNewThread {
                // Reader: counts every change and refusal; its own changes give the latency.
                var seen = 0
                while seen < expected, let m = socket.readJSON(until: { ["changed", "error"].contains($0["type"] as? String) }) {
                    if m["type"] as? String == "error" { refused.value.add(1, ordering: .relaxed); continue }
                    seen += 1
                    received[i].value.add(1, ordering: .relaxed)
                    guard let f = (m["changes"] as? [String: Any])?["frequency"] as? Int, (f - 100) / 900 == i else { continue }
                    let at = sent.times.withLock { $0[(f - 100) % 900] }
                    latencies.values.withLock { $0.append(Date().timeIntervalSince(start) - at) }
                }
                done.leave()
            }
            Thread.detachNewThread {
                for k in 0..<perClient {
                    let due = Double(k) / Self.rate
                    let wait = due - Date().timeIntervalSince(start)
                    if wait > 0 { usleep(UInt32(wait * 1e6)) }
                    let value = 100 + i * 900 + k % 900
                    sent.times.withLock { $0[k % 900] = Date().timeIntervalSince(start) }
                    socket.sendText(#"{"type":"set","path":"tone.frequency","value":\#(value)}"#)
                }
                lastSend.max(Int(Date().timeIntervalSince(start) * 1000), ordering: .relaxed)
            }
        }
        // Memory sampled while it runs (flat: the peak, not only the end).
        while done.wait(timeout: .now() + 0.25) == .timedOut {
            if let u = Self.usage(of: process.processIdentifier) { peakRSS = max(peakRSS, u.rss) }
            if Date().timeIntervalSince(start) > Self.seconds + 20 { break }
        }
        let wall = Date().timeIntervalSince(start)
        let after = try #require(Self.usage(of: process.processIdentifier))
        peakRSS = max(peakRSS, after.rss)
        let total = received.map { $0.value.load(ordering: .relaxed) }
        let delivered = total.reduce(0, +), lost = expected * Self.clients - delivered
        #expect(total.allSatisfy { $0 == expected }, "not every change reached every client: \(total)")
        #expect(refused.value.load(ordering: .relaxed) == 0)
        #expect(peakRSS - before.rss < Self.memoryGrowthLimit, "RSS grew from \(before.rss) to \(peakRSS) bytes")
        let sorted = latencies.values.withLock { $0 }.sorted()
        #expect(sorted.count == expected)
        let ms = { (q: Double) in Self.quantile(sorted, q) * 1000 }
        print(String(format: "studio load: %d clients, %.0f msg/s in (%.0f/s each), %.0f changes/s out, %.0f s: "
                     + "set → changed median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; lost %d, refused %d; "
                     + "server CPU %.0f %% of a core, RSS %.1f → %.1f MB (peak %.1f MB)",
                     Self.clients, Double(expected) / max(0.001, Double(lastSend.load(ordering: .relaxed)) / 1000), Self.rate, Double(delivered) / wall, Self.seconds,
                     ms(0.5), ms(0.9), ms(0.99), (sorted.last ?? .nan) * 1000, lost, refused.value.load(ordering: .relaxed),
                     (after.cpu - before.cpu) / wall * 100, Double(before.rss) / 1_048_576, Double(after.rss) / 1_048_576,
                     Double(peakRSS) / 1_048_576))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
