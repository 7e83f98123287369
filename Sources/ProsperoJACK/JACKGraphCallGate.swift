import Synchronization

/// Keeps JACK's latency callback apart from the control thread's calls that change the graph
/// (`jack_activate`, `jack_connect`, `jack_deactivate`) on one client.
///
/// PipeWire's libjack (0.3.65, Debian 12) runs the latency callback on its loop thread with the loop's lock
/// released, and `jack_port_set_latency_range` sends the port's new latency to the server from there, while
/// `jack_connect` on the control thread sends its own messages on the same connection. Written at once, the
/// two corrupt the protocol's message builder and the process aborts (`assert_single_pod` in
/// module-protocol-native): `pw-jack prospero hands --output both` died so at its start about once in a
/// hundred. JACK 2 runs the callback on its notification thread, where no such race exists.
///
/// The callback never waits here: JACK 2 may run it synchronously inside the server's handling of the
/// control thread's `jack_connect`, so waiting would deadlock. When a graph call is under way the callback
/// does nothing and records which direction it owed; the control thread pays that debt once its call
/// returned (``JACKClient``: sets the latencies itself under PipeWire, asks JACK 2 to run the callbacks again).
package final class JACKGraphCallGate: Sendable {
    private let lock = Mutex<Void>(())
    /// Bit 0: a capture-latency callback was skipped; bit 1: a playback-latency one.
    private let owed = Atomic<UInt8>(0)

    package init() {}

    /// Runs `body` (a libjack call that changes the graph, or the control thread's payment of the debt) with
    /// the latency callback kept out.
    package func graphCall<R>(_ body: () -> R) -> R {
        lock.withLock { _ in body() }
    }

    /// Runs `body` (the latency callback's work for `mode`, JACK's capture 0 or playback 1) unless a graph
    /// call is under way; then records the debt instead.
    package func latencyCallback(mode: Int32, _ body: () -> Void) {
        let ran: Void? = lock.withLockIfAvailable { _ in body() }
        if ran == nil { owed.bitwiseOr(Self.bit(mode), ordering: .releasing) }
    }

    /// The modes whose callback was skipped since the last call, in order (capture first); clears them.
    package func takeOwedModes() -> [Int32] {
        let bits = owed.exchange(0, ordering: .acquiringAndReleasing)
        return [Int32(0), 1].filter { bits & Self.bit($0) != 0 }
    }

    private static func bit(_ mode: Int32) -> UInt8 { mode == 0 ? 1 : 2 }
}
