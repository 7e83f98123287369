import Ariel
import LiveHost
import Synchronization
import Touchstone

/// The hands' way to JACK `midi_out`: the control thread queues messages, each with the audio frame
/// time it is due at (``LiveFrameClock``: its arrival plus the input delay), into a lock-free ring; the
/// audio driver drains them each period (``HandsStudioAudio/drainMIDI(blockStart:frameCount:_:)``) at
/// their frame in the period, as `prospero hands` does (``FrameSchedule``). A full ring drops the message
/// and counts it; nothing blocks.
public final class HandsMIDIQueue: LiveMIDIOutput, @unchecked Sendable {
    struct Scheduled {
        var message: MIDIShortMessage
        var due: UInt32?
    }

    private let ring: SPSCRingBuffer<Scheduled>
    /// Audio thread only: the oldest message, taken from the ring but due after the current period.
    private var waiting: Scheduled?
    private let late = Atomic<Int>(0)

    /// - Parameter capacity: messages that can wait between two periods (rounded up to a power of two).
    public init(capacity: Int = 4096) {
        ring = SPSCRingBuffer(minimumCapacity: capacity)
    }

    /// Control thread: queues `message` due at frame time `due` (nil: at the start of the next period);
    /// false when the ring was full.
    @discardableResult
    public func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool { ring.push(Scheduled(message: message, due: due)) }

    /// Audio thread: hands `body` every message due in the period of `frameCount` frames starting at frame
    /// time `blockStart`, oldest first, with its frame offset in the period (never before an earlier
    /// message's: send order is kept). Messages due later wait, and hold back those queued after them;
    /// one whose frame has passed, or that is due more than `horizon` frames ahead (a wrong clock), goes
    /// at once and is counted in ``lateCount``. Without a `blockStart` every message goes at offset 0.
    /// Real-time safe.
    @inline(__always)
    public func drain(blockStart: UInt32?, frameCount: Int, horizon: Int, _ body: (MIDIShortMessage, Int) -> Void) {
        var cursor = 0
        var lateNow = 0
        while true {
            if waiting == nil { waiting = ring.pop() }
            guard let next = waiting else { break }
            var offset = 0
            if let due = next.due, let blockStart {
                switch FrameSchedule.place(due: due, blockStart: blockStart, frameCount: frameCount, horizon: horizon) {
                case .inBlock(let at): offset = at
                case .late, .beyondHorizon: lateNow += 1
                case .later: if lateNow > 0 { late.add(lateNow, ordering: .relaxed) }; return
                }
            }
            waiting = nil
            cursor = max(cursor, offset)
            body(next.message, cursor)
        }
        if lateNow > 0 { late.add(lateNow, ordering: .relaxed) }
    }

    /// Audio thread: hands every queued message to `body`, oldest first, whatever it is due at.
    @inline(__always)
    public func drain(_ body: (MIDIShortMessage) -> Void) {
        drain(blockStart: nil, frameCount: 0, horizon: 0) { message, _ in body(message) }
    }

    /// Messages dropped because the ring was full.
    public var droppedCount: Int { ring.droppedCount }
    /// Messages sent at the start of a period because their frame had passed (or was implausibly far).
    public var lateCount: Int { late.load(ordering: .relaxed) }
}
