import Foundation
import Studio
import Synchronization
import Testing

/// The load test of #15 over loopback: 20 clients each sending 60 controls a second, every client
/// receiving every change. CI runs 2 s; `PROSPERO_STUDIO_LOAD_SECONDS=60 swift test --filter StudioLoadTests`
/// (scripts/studio-load) runs the full minute. Latency is from a client's send to its own `changed`
/// echo, an upper bound of control → engine (the command is queued before the broadcast).
@Suite("Studio load", .serialized)
struct StudioLoadTests {
    static let clients = 20
    static let rate = 60.0
    static var seconds: Double { Double(ProcessInfo.processInfo.environment["PROSPERO_STUDIO_LOAD_SECONDS"] ?? "") ?? 2 }

    final class SendTimes: @unchecked Sendable {
        let times = Mutex([Double](repeating: 0, count: 900))
    }

    final class Counter: @unchecked Sendable {
        let value = Atomic<Int>(0)
    }

    final class Latencies: @unchecked Sendable {
        let values = Mutex<[Double]>([])
        let lost = Atomic<Int>(0)
    }

    @Test("20 clients × 60 controls/s: nothing refused, every change reaches every client, latency reported")
    func load() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let latencies = Latencies()
        let received = (0..<Self.clients).map { _ in Counter() }
        let perClient = Int(Self.seconds * Self.rate)
        let done = DispatchGroup()
        var sockets: [RawClient] = []
        for _ in 0..<Self.clients { sockets.append(try studio.socket(subscribe: #"["state"]"#).0) }
        let start = Date()
        for (i, socket) in sockets.enumerated() {
            let sent = SendTimes()
            done.enter()
            Thread.detachNewThread {
                // Reader: counts every change; its own ones give the latency.
                let expected = perClient * Self.clients
                var seen = 0
                while seen < expected, let m = socket.readJSON(until: { $0["type"] as? String == "changed" }) {
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
            }
        }
        let finished = done.wait(timeout: .now() + Self.seconds + 20)
        #expect(finished == .success, "not every change reached every client")
        let total = received.map { $0.value.load(ordering: .relaxed) }
        #expect(total.allSatisfy { $0 == perClient * Self.clients }, "\(total)")
        #expect(studio.session.statistics.rateLimited == 0 && studio.session.statistics.malformed == 0)
        let sorted = latencies.values.withLock { $0 }.sorted()
        #expect(sorted.count == perClient * Self.clients)
        if !sorted.isEmpty {
            let median = sorted[sorted.count / 2] * 1000, p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000
            print(String(format: "studio load: %d clients × %.0f msg/s for %.0f s: control → changed median %.2f ms, p99 %.2f ms, %d changes delivered",
                         Self.clients, Self.rate, Self.seconds, median, p99, total.reduce(0, +)))
        }
    }
}
