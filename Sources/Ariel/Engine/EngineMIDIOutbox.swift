import Synchronization

/// The MIDI an engine plays while it renders (Hecate's face as notes and controllers), each message
/// stamped with the frame it belongs to, counted from the engine's first rendered frame.
///
/// The engine posts on the audio thread and advances ``position`` by the frames it rendered; whoever
/// renders it drains after each block on the same thread: the JACK handler to `midi_out` at each
/// message's offset in the period (``drain(lastFrames:_:)``), an offline render into a MIDI file
/// (``drain(_:)``, absolute frames). Preallocated, fixed capacity: a message that does not fit is
/// refused (``post(_:atFrame:)`` returns false, so the engine can keep its note state true and try
/// again) and counted in ``droppedCount``. Nothing here allocates, locks or blocks.
public final class EngineMIDIOutbox: @unchecked Sendable {
    /// One message and the frame it belongs to (frames since the engine's first rendered frame).
    public struct Event: Sendable, Hashable {
        public var frame: Int64
        public var message: MIDIShortMessage
    }

    /// Messages the outbox holds between two drains.
    public let capacity: Int
    private let events: UnsafeMutablePointer<Event>
    private var count = 0
    /// Frames the engine has rendered so far (the frame after the last one rendered).
    public private(set) var position: Int64 = 0
    private let dropped = Atomic<Int>(0)
    private let posted = Atomic<Int>(0)

    /// - Parameter capacity: messages held between two drains (≥ 1).
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        events = .allocate(capacity: self.capacity)
    }

    deinit { events.deallocate() }

    // MARK: Engine (audio thread)

    /// Posts `message` at absolute frame `frame`; false (and counted) when the outbox is full.
    @discardableResult
    public func post(_ message: MIDIShortMessage, atFrame frame: Int64) -> Bool {
        guard count < capacity else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        (events + count).initialize(to: Event(frame: frame, message: message))
        count += 1
        posted.add(1, ordering: .relaxed)
        return true
    }

    /// Room for `n` more messages before the next drain.
    public func hasRoom(for n: Int) -> Bool { capacity - count >= n }

    /// The engine rendered up to (not including) absolute frame `frame`.
    public func advance(to frame: Int64) { position = max(position, frame) }

    // MARK: Renderer (the same thread, after each block)

    /// Hands every message posted since the last drain to `body`, oldest first, with its absolute frame.
    public func drain(_ body: (Event) -> Void) {
        for i in 0..<count { body(events[i]) }
        count = 0
    }

    /// Hands every message posted since the last drain to `body` with its offset in the block of the
    /// last `frameCount` frames rendered (0 ..< frameCount; earlier frames at 0), never before an
    /// earlier message's offset (post order is kept).
    public func drain(lastFrames frameCount: Int, _ body: (MIDIShortMessage, Int) -> Void) {
        let start = position - Int64(frameCount)
        var cursor = 0
        for i in 0..<count {
            let event = events[i]
            let offset = Int(min(max(event.frame - start, 0), Int64(max(frameCount - 1, 0))))
            cursor = max(cursor, offset)
            body(event.message, cursor)
        }
        count = 0
    }

    /// Forgets undrained messages (their receiver went away).
    public func discard() { count = 0 }

    /// Messages refused because the outbox was full. Any thread.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
    /// Messages posted so far. Any thread.
    public var postedCount: Int { posted.load(ordering: .relaxed) }
}
