import Studio
import Synchronization

/// One socket's outgoing messages, between the session (any thread, under its lock) and the socket's
/// writer task. The two kinds are treated as what they are worth to a page that falls behind:
///
/// - **Text** (control echoes, state, HUD frames) must arrive, in order: it is kept up to
///   ``textByteLimit`` bytes queued. A page further behind than that is not reading (a frozen tab, a
///   stalled phone): the queue closes, the socket is cut, and the session marks the client so that when
///   it reconnects it gets the whole state instead of a replay with holes.
/// - **Binary** (meters, scope, spectrum, PCM) is only worth its newest frames: beyond ``binaryLimit``
///   frames queued, new ones are dropped and counted (a listening page's jitter buffer shows the gap as a
///   dropout and trims what comes after).
///
/// Nothing is silently lost: the server's ``StudioOutboundCounters`` count every drop and cut.
public final class StudioOutboundQueue: Sendable {
    /// Text bytes that may wait for one socket (at 1 200 changes a second of about 100 bytes, 35 s of them).
    public static let textByteLimit = 4 << 20
    /// Binary frames that may wait (PCM blocks are 5.3 ms each: 64 of them are 340 ms, beyond any jitter buffer).
    public static let binaryLimit = 64

    public let stream: AsyncStream<StudioOutgoing>
    private let continuation: AsyncStream<StudioOutgoing>.Continuation
    /// Text bytes in the stream and not yet written (a push over the limit gives its bytes back).
    private let textBytes = Atomic<Int>(0)
    private let binaryFrames = Atomic<Int>(0)
    private let closedForLag = Atomic<Bool>(false)
    /// Text messages in the stream and not yet written: with ``textBytes``, this socket's share of the server-wide
    /// waiting count, given back when the queue goes.
    private let unwrittenMessages = Atomic<Int>(0)
    private let counters: StudioOutboundCounters

    public init(counters: StudioOutboundCounters) {
        (stream, continuation) = AsyncStream.makeStream(of: StudioOutgoing.self, bufferingPolicy: .unbounded)
        self.counters = counters
    }

    /// True once the queue closed because its page stopped reading.
    public var overflowed: Bool { closedForLag.load(ordering: .acquiring) }

    /// Queues `message` (called under the session's lock, so in the session's order).
    public func push(_ message: StudioOutgoing) {
        switch message {
        case .text(let text):
            let size = text.utf8.count
            if textBytes.add(size, ordering: .relaxed).newValue > Self.textByteLimit {
                textBytes.subtract(size, ordering: .relaxed)
                if !closedForLag.exchange(true, ordering: .acquiringAndReleasing) {
                    counters.clientsCut.add(1, ordering: .relaxed)
                    continuation.finish()
                }
                return
            }
            // Counted before the stream can hand it to the writer, so that `written` never runs first.
            unwrittenMessages.add(1, ordering: .relaxed)
            counters.queuedText(bytes: size)
            if case .terminated = continuation.yield(message) {
                unwrittenMessages.subtract(1, ordering: .relaxed)
                counters.unqueuedText(messages: 1, bytes: size)
                textBytes.subtract(size, ordering: .relaxed)
            }
            return
        case .binary:
            if binaryFrames.add(1, ordering: .relaxed).newValue > Self.binaryLimit {
                binaryFrames.subtract(1, ordering: .relaxed)
                counters.binaryDropped.add(1, ordering: .relaxed)
                return
            }
        }
        continuation.yield(message)
    }

    /// The writer wrote `message` to the socket.
    public func written(_ message: StudioOutgoing) {
        switch message {
        case .text(let text):
            let size = text.utf8.count
            textBytes.subtract(size, ordering: .relaxed)
            unwrittenMessages.subtract(1, ordering: .relaxed)
            counters.unqueuedText(messages: 1, bytes: size)
            counters.textSent.add(1, ordering: .relaxed)
        case .binary:
            binaryFrames.subtract(1, ordering: .relaxed)
            counters.binarySent.add(1, ordering: .relaxed)
        }
    }

    public func finish() { continuation.finish() }

    deinit {
        // What its socket never wrote no longer waits.
        counters.unqueuedText(messages: unwrittenMessages.load(ordering: .relaxed), bytes: textBytes.load(ordering: .relaxed))
    }
}
