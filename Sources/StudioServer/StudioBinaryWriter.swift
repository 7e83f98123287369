import NIOCore
import NIOWebSocket
import Synchronization

/// One socket's binary frames (browser audio's PCM at ~190 a second, meters, scope, spectrum, camera previews)
/// written straight to its NIO channel, without a Swift task or an async sequence in between. Frames handed over
/// on the channel's own event loop (browser audio's groups: the render thread rings the loop its listeners live on,
/// ``StudioBrowserDriver/handOn(from:)``) are written at once; frames from any other thread wait and go in one task
/// on that loop. Either way, whatever is written together goes as **one buffer and one flush**: each frame framed as
/// its own binary WebSocket message, all of them in one `ByteBuffer` written below NIO's frame encoder
/// (``StudioWebSocketOutlet``), so a group of blocks costs the socket one write, one `write` system call (one TLS
/// record over HTTPS), where each block was two buffers through the pipeline.
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
    /// Below the frame encoder (nil: the pipeline has none, a test's channel: each frame goes through the encoder).
    private let outlet: NIOLoopBound<StudioWebSocketOutlet>?

    struct Pending {
        var frames: [[UInt8]] = []
        /// A write task is on its way to the event loop: frames arriving now join it.
        var scheduled = false
        var open = true
    }

    /// A writer for `channel` that writes below the frame encoder when the pipeline has one; call from outside the
    /// channel's event loop (it waits for the loop to place the outlet).
    static func make(channel: any Channel, counters: StudioOutboundCounters) async -> StudioBinaryWriter {
        let outlet = try? await channel.eventLoop.submit { () -> NIOLoopBound<StudioWebSocketOutlet>? in
            guard let encoder = try? channel.pipeline.syncOperations.handler(type: WebSocketFrameEncoder.self) else { return nil }
            let outlet = StudioWebSocketOutlet()
            try channel.pipeline.syncOperations.addHandler(outlet, position: .before(encoder))
            return NIOLoopBound(outlet, eventLoop: channel.eventLoop)
        }.get()
        return StudioBinaryWriter(channel: channel, counters: counters, outlet: outlet)
    }

    init(channel: any Channel, counters: StudioOutboundCounters, outlet: NIOLoopBound<StudioWebSocketOutlet>? = nil) {
        self.channel = channel
        self.counters = counters
        self.outlet = outlet
    }

    /// Queues `bytes` as one binary WebSocket message (any thread).
    func push(_ bytes: [UInt8]) { push(contentsOf: CollectionOfOne(bytes)) }

    /// Each of `frames` as one binary WebSocket message, in order (a group of blocks: one write). On the channel's
    /// loop they are written now, after any frames still waiting; from another thread the first frames since the
    /// last write schedule one task on the loop.
    func push(contentsOf frames: some Collection<[UInt8]>) {
        if channel.eventLoop.inEventLoop {
            // Frames another thread queued before these go first: binary frames keep their order.
            let waiting = pending.withLock { p -> [[UInt8]]? in
                guard p.open else { return nil }
                var taken: [[UInt8]] = []
                swap(&taken, &p.frames)
                return taken
            }
            guard let waiting else { return }
            if waiting.isEmpty { write(frames) } else { write(waiting + frames) }
            return
        }
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
        if schedule {
            counters.binaryHops.add(1, ordering: .relaxed)
            channel.eventLoop.execute { [self] in writeWaiting() }
        }
    }

    /// No more frames: the socket is closing.
    func close() {
        pending.withLock { p in
            p.open = false
            p.frames.removeAll()
        }
    }

    /// On the channel's event loop: every waiting frame.
    private func writeWaiting() {
        let frames = pending.withLock { p -> [[UInt8]] in
            p.scheduled = false
            var taken: [[UInt8]] = []
            swap(&taken, &p.frames)
            return taken
        }
        write(frames)
    }

    /// On the channel's event loop: `frames`, one flush.
    private func write(_ frames: some Collection<[UInt8]>) {
        // A socket the page closed: its last frames go nowhere (not a page behind).
        guard !frames.isEmpty, channel.isActive else { return }
        guard channel.isWritable else {
            counters.binaryDropped.add(frames.count, ordering: .relaxed)
            return
        }
        // Counted before the write: a reader that got the frames finds them counted.
        counters.binaryWrites.add(1, ordering: .relaxed)
        counters.binarySent.add(frames.count, ordering: .relaxed)
        if let outlet {
            var buffer = channel.allocator.buffer(capacity: frames.reduce(0) { $0 + StudioWebSocketFraming.framedSize($1.count) })
            for bytes in frames { StudioWebSocketFraming.appendBinaryMessage(bytes, to: &buffer) }
            _ = outlet.value.writeAndFlush(buffer)
        } else {
            for bytes in frames {
                var buffer = channel.allocator.buffer(capacity: bytes.count)
                buffer.writeBytes(bytes)
                channel.write(WebSocketFrame(fin: true, opcode: .binary, data: buffer), promise: nil)
            }
            channel.flush()
        }
    }
}
