import Foundation

/// The bounded queue between a ``DatagramSource``'s thread and the host's input loop. When full,
/// the oldest datagram is dropped (a live instrument wants the newest gesture) and counted.
/// Pushing wakes the waiting loop at once: arrivals are handled when they come, not on a poll.
public final class LiveInbox: @unchecked Sendable {
    public let capacity: Int
    private let condition = NSCondition()
    private var ring: [Datagram?]
    private var head = 0
    private var count = 0
    private var dropped = 0
    private var woken = false

    /// - Parameter capacity: datagrams held at most (1…1 000 000).
    public init(capacity: Int = 4096) {
        self.capacity = min(max(capacity, 1), 1_000_000)
        ring = [Datagram?](repeating: nil, count: self.capacity)
    }

    /// Queues `datagram`, dropping the oldest when full; wakes the waiting loop.
    public func push(_ datagram: Datagram) {
        condition.lock()
        if count == capacity {
            head = (head + 1) % capacity
            count -= 1
            dropped += 1
        }
        ring[(head + count) % capacity] = datagram
        count += 1
        condition.signal()
        condition.unlock()
    }

    /// Wakes a waiting ``take(waitingUpTo:)`` without a datagram (a stop request).
    public func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Everything queued, oldest first; waits up to `timeout` (seconds) for the first one or a wake.
    public func take(waitingUpTo timeout: Double) -> [Datagram] {
        condition.lock()
        defer { condition.unlock() }
        if count == 0 && !woken && timeout > 0 {
            let limit = Date(timeIntervalSinceNow: timeout)
            while count == 0 && !woken {
                if !condition.wait(until: limit) { break }
            }
        }
        woken = false
        var taken: [Datagram] = []
        taken.reserveCapacity(count)
        while count > 0 {
            taken.append(ring[head]!)
            ring[head] = nil
            head = (head + 1) % capacity
            count -= 1
        }
        return taken
    }

    /// Datagrams dropped because the loop fell behind by `capacity`.
    public var droppedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }
}
