import Enobarbus
import Foundation
import NIOCore
import NIOPosix
import ProsperoTestSupport
import Studio
import StudioServer
import Testing

/// Browser audio handed on from the event loops, as `prospero studio` runs it (``StudioBrowserDriver/handOn(from:)``):
/// the render thread rings, through a pipe, the loop its listening socket lives on, once per group of blocks, and
/// that loop writes the socket in the same wake-up, the whole group as one write. Every block reaches a subscribed
/// client once, in order, whole, at the render rate; no group is handed from one loop to another; the groups are
/// written whole. Two listeners in turn land on NIO's loops in turn, so both loops' doorbells are taken.
@Suite("Studio browser audio from an event loop", .serialized, .ownThread)
struct StudioBrowserAudioLoopTests {
    @Test("handed on from the listener's loop, a client receives every block once, in order, a group per write, with no hop")
    func stream() throws {
        let studio = try StudioTestServer(audio: { StudioBrowserDriver(engines: $2, active: 0, tap: $1, fanOut: $0) })
        defer { studio.stop() }
        let driver = try #require(studio.audio as? StudioBrowserDriver)
        try driver.handOn(from: StudioServer.eventLoops)
        driver.start(stop: studio.stopper)
        defer { studio.stopper.request(.requested); driver.waitUntilStopped() }
        let counters = studio.server.outbound
        var homes: Set<Int> = []
        for round in 0..<2 {
            let (hops, writes, sent) = (counters.binaryHops.load(ordering: .relaxed), counters.binaryWrites.load(ordering: .relaxed),
                                        counters.binarySent.load(ordering: .relaxed))
            let subscribed = MonotonicClock.now()
            let (listener, _) = try studio.socket(subscribe: #"["audio"]"#)
            var sequences: [UInt32] = []
            var last = subscribed
            while sequences.count < 240, let frame = listener.readFrame() {
                guard frame.opcode == 2, frame.payload.first == 0x10 else { continue }
                let pcm = try StudioPCMFrame.decode(frame.payload)
                #expect(pcm.frameCount == StudioBrowserDriver.defaultBlockFrames)
                #expect(frame.payload.count == StudioPCMFrame.byteCount(frames: pcm.frameCount))
                sequences.append(pcm.sequence)
                last = MonotonicClock.now()
            }
            #expect(sequences.count == 240, "round \(round)")
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "round \(round): blocks out of order or lost")
            // Paced by the render clock, a group ahead at most: never faster than real time by more than that.
            let rate = Double(240 * StudioBrowserDriver.defaultBlockFrames) / (last - subscribed)
            #expect(rate < 52_000, "round \(round): \(rate) frames/s since the subscription")
            if let home = studio.session.fanOut.listenersHome { homes.insert(home) }
            let written = counters.binarySent.load(ordering: .relaxed) - sent
            let writeCount = counters.binaryWrites.load(ordering: .relaxed) - writes
            // A group per write (6 blocks; the first groups may be split by the subscription or a late render).
            #expect(written >= 240 && writeCount * 3 <= written, "round \(round): \(written) blocks in \(writeCount) writes")
            // Rung on the listener's own loop: no group handed to another loop, except one rung before the
            // subscription was published.
            let hopped = counters.binaryHops.load(ordering: .relaxed) - hops
            #expect(hopped <= 2, "round \(round): \(hopped) groups handed from one loop to another")
            _ = shutdown(listener.fd, Int32(SHUT_RDWR))
            // Gone: the next listener is the only one.
            let deadline = MonotonicClock.now() + 5
            while !studio.session.fanOut.subscribers(of: .audio).isEmpty, MonotonicClock.now() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(!homes.isEmpty, "the listener's socket had no home among the server's loops")
    }
}
