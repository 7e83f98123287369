import Studio
import StudioServer
import Testing

/// A socket's outgoing queue: text is kept in order up to its byte limit, then the queue closes and
/// counts the cut; binary frames beyond their limit are dropped and counted; written messages free room.
@Suite("Studio outbound queue")
struct StudioOutboundQueueTests {
    @Test("binary frames beyond the limit are dropped and counted; writing frees room")
    func binaryDrops() async {
        let counters = StudioOutboundCounters()
        let queue = StudioOutboundQueue(counters: counters)
        for i in 0..<(StudioOutboundQueue.binaryLimit + 10) { queue.push(.binary([UInt8(i & 0xFF)])) }
        #expect(counters.binaryDropped.load(ordering: .relaxed) == 10)
        queue.written(.binary([0]))
        queue.push(.binary([0xEE]))
        #expect(counters.binaryDropped.load(ordering: .relaxed) == 10)
        queue.push(.text("after"))
        queue.finish()
        var frames: [StudioOutgoing] = []
        for await m in queue.stream { frames.append(m) }
        // The first 64 in order, then the one pushed after a write, then the text: nothing reordered.
        #expect(frames.count == StudioOutboundQueue.binaryLimit + 2)
        #expect(Array(frames.prefix(StudioOutboundQueue.binaryLimit)) == (0..<StudioOutboundQueue.binaryLimit).map { .binary([UInt8($0)]) })
        #expect(Array(frames.suffix(2)) == [.binary([0xEE]), .text("after")])
        #expect(!queue.overflowed)
    }

    @Test("text past the byte limit closes the queue once, counts the cut, keeps what was queued in order")
    func textCut() async {
        let counters = StudioOutboundCounters()
        let queue = StudioOutboundQueue(counters: counters)
        let message = String(repeating: "x", count: 1 << 16)
        let fits = StudioOutboundQueue.textByteLimit / message.utf8.count
        for _ in 0..<fits { queue.push(.text(message)) }
        #expect(!queue.overflowed)
        queue.push(.text(message))
        queue.push(.text("later"))
        #expect(queue.overflowed)
        #expect(counters.clientsCut.load(ordering: .relaxed) == 1)
        var count = 0
        for await m in queue.stream {
            #expect(m == .text(message))
            count += 1
        }
        #expect(count == fits)
    }

    @Test("a reader that keeps up is never cut, however much passes through")
    func steadyReader() async {
        let counters = StudioOutboundCounters()
        let queue = StudioOutboundQueue(counters: counters)
        let message = String(repeating: "y", count: 1000)
        var read = 0
        var iterator = queue.stream.makeAsyncIterator()
        for round in 0..<50 {
            for _ in 0..<1000 { queue.push(.text(message)) }
            if round == 49 { queue.finish() }
            for _ in 0..<1000 {
                guard let m = await iterator.next() else { break }
                queue.written(m)
                read += 1
            }
        }
        #expect(read == 50_000)
        #expect(!queue.overflowed && counters.clientsCut.load(ordering: .relaxed) == 0)
        #expect(counters.textSent.load(ordering: .relaxed) == 50_000)
        #expect(counters.summary.contains("0 pages cut off"))
    }

    @Test("text waiting on every socket is counted with its high-water mark; written or dropped with its queue, it no longer waits")
    func waitingText() async {
        let counters = StudioOutboundCounters()
        var first: StudioOutboundQueue? = StudioOutboundQueue(counters: counters)
        let second = StudioOutboundQueue(counters: counters)
        for _ in 0..<10 { first?.push(.text("0123456789")) }
        for _ in 0..<5 { second.push(.text("abc")) }
        second.push(.binary([1, 2, 3]))
        #expect(counters.textWaiting.load(ordering: .relaxed) == 15)
        #expect(counters.textWaitingBytes.load(ordering: .relaxed) == 115)
        var iterator = second.stream.makeAsyncIterator()
        for _ in 0..<5 {
            if let m = await iterator.next() { second.written(m) }
        }
        #expect(counters.textWaiting.load(ordering: .relaxed) == 10)
        first?.finish()
        first = nil  // its page left: the ten never written are dropped with it
        #expect(counters.textWaiting.load(ordering: .relaxed) == 0 && counters.textWaitingBytes.load(ordering: .relaxed) == 0)
        // After its stream finished, a push is not queued and never waits.
        second.finish()
        second.push(.text("late"))
        #expect(counters.textWaiting.load(ordering: .relaxed) == 0)
        #expect(counters.textWaitingPeak.load(ordering: .relaxed) == 15 && counters.textWaitingBytesPeak.load(ordering: .relaxed) == 115)
        #expect(counters.summary.contains("at most 15 messages (1 KB) of text waiting;"), "\(counters.summary)")
    }
}
