import Enobarbus
import Foundation
import NIOCore
import NIOPosix
import Studio
import StudioServer
import Testing

/// Browser audio handed on from an event loop, as `prospero studio` runs it (``StudioBrowserDriver/handOn(from:)``):
/// the render thread rings the loop through a pipe once per group of blocks and the loop writes the sockets. Every
/// block reaches a subscribed client once, in order, whole, at the render rate, as through the sender thread; the
/// socket lands on this loop or on the other of NIO's shared loops, so both ways to the socket are taken over runs.
@Suite("Studio browser audio from an event loop", .serialized)
struct StudioBrowserAudioLoopTests {
    @Test("handed on from an event loop, a subscribed client receives every block once, in order")
    func stream() throws {
        let studio = try StudioTestServer(audio: { StudioBrowserDriver(engines: $2, active: 0, tap: $1, fanOut: $0) })
        defer { studio.stop() }
        let driver = try #require(studio.audio as? StudioBrowserDriver)
        try driver.handOn(from: MultiThreadedEventLoopGroup.singleton.next())
        driver.start(stop: studio.stopper)
        defer { studio.stopper.request(.requested); driver.waitUntilStopped() }
        let subscribed = MonotonicClock.now()
        let (listener, _) = try studio.socket(subscribe: #"["audio"]"#)
        var sequences: [UInt32] = []
        var last = subscribed
        while sequences.count < 300, let frame = listener.readFrame() {
            guard frame.opcode == 2, frame.payload.first == 0x10 else { continue }
            let pcm = try StudioPCMFrame.decode(frame.payload)
            #expect(pcm.frameCount == StudioBrowserDriver.defaultBlockFrames)
            #expect(frame.payload.count == StudioPCMFrame.byteCount(frames: pcm.frameCount))
            sequences.append(pcm.sequence)
            last = MonotonicClock.now()
        }
        #expect(sequences.count == 300)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        // Paced by the render clock, a group ahead at most: never faster than real time by more than that.
        let rate = Double(300 * StudioBrowserDriver.defaultBlockFrames) / (last - subscribed)
        #expect(rate < 52_000, "\(rate) frames/s since the subscription")
    }
}
