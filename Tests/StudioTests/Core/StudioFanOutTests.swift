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
            #expect(sent.wait(timeout: .now() + 5) == .success, "the binary send waited for the session's lock")
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
            #expect(sent.wait(timeout: .now() + 5) == .success, "the group waited for the session's lock")
        }
        #expect(batches.withLock { $0 } == [[[0x10, 1], [0x10, 2]]])
        #expect(single.withLock { $0.filter { if case .binary = $0 { true } else { false } } } == [.binary([0x10, 1]), .binary([0x10, 2])])
    }
}
