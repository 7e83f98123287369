import Enobarbus
import Synchronization

/// A live instrument that also runs work posted from other threads on the live host's thread, at its
/// next tick, before the instrument advances. The engine's command ring has one producer (the host's
/// thread); a part that learns something on another thread (the audio session seeing the output move
/// to a Bluetooth sink) posts the command here instead of sending it itself.
///
///     let mailbox = LiveInstrumentMailbox(base: instrument)
///     LiveSession(handler: handler, onGraphChange: { _ in mailbox.post { host.send(.output(playAlong: true, route: .bluetooth)) } })
public final class LiveInstrumentMailbox: LiveInstrument, @unchecked Sendable {
    public let base: any LiveInstrument
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// Work waiting at most; beyond it the oldest is dropped (each post is a complete state, so the
    /// newest is what matters).
    public static let capacity = 64

    public init(base: any LiveInstrument) {
        self.base = base
    }

    /// Runs `work` on the live host's thread at its next tick; any thread.
    public func post(_ work: @escaping @Sendable () -> Void) {
        posted.withLock { queue in
            if queue.count >= Self.capacity { queue.removeFirst(queue.count - Self.capacity + 1) }
            queue.append(work)
        }
    }

    public func receive(_ frames: [TrackingFrame], at time: Double) { base.receive(frames, at: time) }
    public func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) {
        base.receive(frames, from: sender, at: time)
    }
    public func receiveControls(_ outputs: [Float], at time: Double) { base.receiveControls(outputs, at: time) }

    public func advance(to time: Double) {
        let work = posted.withLock { queue -> [@Sendable () -> Void] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        for w in work { w() }
        base.advance(to: time)
    }

    /// The base's: a resting host still runs posted work, within its resting tick.
    public var canRest: Bool { base.canRest }
    public func finish(at time: Double) { base.finish(at: time) }
    public func statusLine(at time: Double) -> String? { base.statusLine(at: time) }
}
