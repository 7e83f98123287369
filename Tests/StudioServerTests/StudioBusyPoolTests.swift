import Foundation
import ProsperoTestSupport
import Synchronization
import Testing

/// The studio serves a page and upgrades its socket while every thread of Swift's cooperative pool is busy computing
/// (an offline render, a camera model in-process, the test runner's own CPU-bound tests): the server's work runs on
/// its event loops and its own executor, never in a task on the pool.
@Suite("Studio server beside a busy pool", .serialized, .ownThread)
struct StudioBusyPoolTests {
    @Test("with every pool thread computing, a page is served and a socket is welcomed")
    func servesWhileThePoolComputes() throws {
        let studio = try StudioTestServer()
        defer { studio.stop() }
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let flags = Flags()
        // One task per pool thread, each computing until the test ends. They start when the pool gets to them (the
        // runner's other tests may hold it for minutes); each then keeps its thread, so once all run, the pool is full.
        let spinners = (0..<threads).map { _ in
            Task.detached {
                flags.running.add(1, ordering: .relaxed)
                var x = 0.0
                while !flags.done.load(ordering: .relaxed) { x += 1 }
                return x
            }
        }
        defer {
            flags.done.store(true, ordering: .relaxed)
            for spinner in spinners { spinner.cancel() }
        }
        // A bound only against a broken pool: the other tests' tasks end, and the spinners get their threads.
        try Eventually.holds("\(threads) tasks computing on the pool", within: 1_800) {
            flags.running.load(ordering: .relaxed) == threads
        }

        // Served while the pool is full: a server that needed a pool thread would wait for the spinners, which wait
        // for the test, and the reads below would give up after their bound.
        let page = try RawClient(port: studio.port).request("/", headers: [("Host", studio.host)])
        #expect(page.status == 200)
        let (socket, welcome) = try studio.socket()
        #expect(welcome["type"] as? String == "welcome")
        _ = socket
    }

    /// How many spinners run, and whether they should stop.
    final class Flags: Sendable {
        let running = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
    }
}
