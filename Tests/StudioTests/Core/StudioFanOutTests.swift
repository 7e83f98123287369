import Foundation
import Studio
import Synchronization
import ProsperoTestSupport
import Testing

@Suite("Studio binary fan-out", .ownThread)
struct StudioFanOutTests {
    @Test("binary frames reach the subscribed connected clients without the session's lock (sent while another thread holds it)")
    func withoutTheLock() throws {
        let session = StudioSession(instruments: [StudioToneInstrument()])
        let got = Mutex<[StudioOutgoing]>([])
        let listener = session.connect { m in got.withLock { $0.append(m) } }
        session.receive(Array(#"{"type":"hello","subscribe":["audio"]}"#.utf8), from: listener, now: 0)
        let other = session.connect { m in if case .binary = m { Issue.record("a client not subscribed to audio got PCM") } }
        session.receive(Array(#"{"type":"hello","subscribe":["state"]}"#.utf8), from: other, now: 0)
        #expect(session.audioListeners.count == 1)
        let sent = DispatchSemaphore(value: 0)
        // The session's lock is held (an instrument call that takes long) while a sender thread sends a block.
        _ = session.withInstrument("tone") { _ in
            Thread.detachNewThread {
                session.sendBinary([0x10, 1, 2, 3], to: .audio)
                sent.signal()
            }
            #expect(sent.wait(timeout: .now() + Eventually.bound) == .success, "the binary send waited for the session's lock")
        }
        #expect(got.withLock { $0.contains(.binary([0x10, 1, 2, 3])) })
        // A lost socket gets nothing more.
        session.disconnect(listener, now: 1)
        got.withLock { $0.removeAll() }
        session.sendBinary([0x10, 4], to: .audio)
        #expect(got.withLock { $0.isEmpty })
        #expect(session.audioListeners.isEmpty)
    }

    @Test("browser audio's groups of blocks reach a connection in one hand-over, others one by one, while the session's lock is held")
    func groupsWithoutTheLock() throws {
        let session = StudioSession(instruments: [StudioToneInstrument()])
        let batches = Mutex<[[[UInt8]]]>([])
        let single = Mutex<[StudioOutgoing]>([])
        let grouped = session.connect(outbox: { _ in }, frames: { frames in batches.withLock { $0.append(frames) } })
        session.receive(Array(#"{"type":"hello","subscribe":["audio"]}"#.utf8), from: grouped, now: 0)
        let plain = session.connect { m in single.withLock { $0.append(m) } }
        session.receive(Array(#"{"type":"hello","subscribe":["audio"]}"#.utf8), from: plain, now: 0)
        let sent = DispatchSemaphore(value: 0)
        _ = session.withInstrument("tone") { _ in
            Thread.detachNewThread {
                session.fanOut.send(frames: [[0x10, 1], [0x10, 2]], to: .audio)
                sent.signal()
            }
            #expect(sent.wait(timeout: .now() + Eventually.bound) == .success, "the group waited for the session's lock")
        }
        #expect(batches.withLock { $0 } == [[[0x10, 1], [0x10, 2]]])
        #expect(single.withLock { $0.filter { if case .binary = $0 { true } else { false } } } == [.binary([0x10, 1]), .binary([0x10, 2])])
    }

    @Test("the listeners' home: where most clients subscribed to audio are written from, followed as they come and go")
    func listenersHome() throws {
        let session = StudioSession(instruments: [StudioToneInstrument()])
        let hello = { (c: Int, streams: String) in
            session.receive(Array(#"{"type":"hello","subscribe":[\#(streams)]}"#.utf8), from: c, now: 0)
        }
        #expect(session.fanOut.listenersHome == nil)
        // A page watching panels only is nobody's listener.
        let watcher = session.connect(outbox: { _ in }, home: 0)
        hello(watcher, #""meters""#)
        #expect(session.fanOut.listenersHome == nil)
        let first = session.connect(outbox: { _ in }, home: 1)
        hello(first, #""status","audio""#)
        #expect(session.fanOut.listenersHome == 1)
        // A tie keeps the lower home; a majority wins.
        let second = session.connect(outbox: { _ in }, home: 0)
        hello(second, #""audio""#)
        #expect(session.fanOut.listenersHome == 0)
        let third = session.connect(outbox: { _ in }, home: 1)
        hello(third, #""audio""#)
        #expect(session.fanOut.listenersHome == 1)
        // A listener without a home (the edge did not say) counts for none.
        let homeless = session.connect(outbox: { _ in })
        hello(homeless, #""audio""#)
        #expect(session.fanOut.listenersHome == 1)
        session.disconnect(first, now: 1)
        session.disconnect(third, now: 1)
        #expect(session.fanOut.listenersHome == 0)
        session.disconnect(second, now: 1)
        #expect(session.fanOut.listenersHome == nil)
    }
}
