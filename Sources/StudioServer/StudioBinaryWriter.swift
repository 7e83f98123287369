import NIOCore
import NIOWebSocket
import Synchronization

/// One socket's binary frames (browser audio's PCM at ~190 a second, meters, scope, spectrum, camera previews)
/// written straight to its NIO channel: whatever arrived since the channel's event loop last ran is written
/// in one task there and flushed once (browser audio hands over several blocks at a time, so they share one
/// wake-up of the event loop and one `writev`), without a Swift task or an async sequence in between.
/// Text stays on the ``StudioOutboundQueue`` path (kept whole, in order, behind the socket's backpressure);
/// binary frames are only worth their newest, so the two go their own ways and a binary frame may pass a
/// text message queued before it. Binary frames keep their own order.
///
/// A page that stops reading: once the channel is not writable (NIO's outbound buffer above its high
/// watermark, 64 KB: about 60 PCM blocks, 340 ms), new binary frames are dropped and counted, as the queue
/// did beyond ``StudioOutboundQueue/binaryLimit`` frames (a listening page's jitter buffer shows the gap as a
/// dropout). After ``close()`` (the socket's handler returned, its close frame follows) nothing more is written.
final class StudioBinaryWriter: Sendable {
    private let channel: any Channel
    private let counters: StudioOutboundCounters
    private let pending = Mutex(Pending())

    struct Pending {
        var frames: [[UInt8]] = []
        /// A write task is on its way to the event loop: frames arriving now join it.
        var scheduled = false
        var open = true
    }

    init(channel: any Channel, counters: StudioOutboundCounters) {
        self.channel = channel
        self.counters = counters
    }

    /// Queues `bytes` as one binary WebSocket message (any thread); the first frame since the last write
    /// schedules the next one.
    func push(_ bytes: [UInt8]) { push(contentsOf: CollectionOfOne(bytes)) }

    /// Queues each of `frames` as one binary WebSocket message, in order (a group of blocks: one write task).
    func push(contentsOf frames: some Collection<[UInt8]>) {
        let schedule = pending.withLock { p -> Bool in
            guard p.open else { return false }
            for bytes in frames {
                if p.frames.count >= StudioOutboundQueue.binaryLimit {
                    counters.binaryDropped.add(1, ordering: .relaxed)
                } else {
                    p.frames.append(bytes)
                }
            }
            guard !p.scheduled, !p.frames.isEmpty else { return false }
            p.scheduled = true
            return true
        }
        if schedule { channel.eventLoop.execute { [self] in write() } }
    }

    /// No more frames: the socket is closing.
    func close() {
        pending.withLock { p in
            p.open = false
            p.frames.removeAll()
        }
    }

    /// On the channel's event loop: every waiting frame, one flush.
    private func write() {
        let frames = pending.withLock { p -> [[UInt8]] in
            p.scheduled = false
            var taken: [[UInt8]] = []
            swap(&taken, &p.frames)
            return taken
        }
        // A socket the page closed: its last frames go nowhere (not a page behind).
        guard !frames.isEmpty, channel.isActive else { return }
        guard channel.isWritable else {
            counters.binaryDropped.add(frames.count, ordering: .relaxed)
            return
        }
        for bytes in frames {
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            channel.write(WebSocketFrame(fin: true, opcode: .binary, data: buffer), promise: nil)
        }
        channel.flush()
        counters.binarySent.add(frames.count, ordering: .relaxed)
    }
}
