import Dispatch
import Foundation
import ProsperoJACK
import Synchronization
import Testing

/// The gate between JACK's latency callback and the control thread's graph calls (no server: the
/// callback runs on a thread of the test's own, as PipeWire's loop thread would).
@Suite struct JACKGraphCallGateTests {
    /// Runs `gate.latencyCallback` on another thread; returns whether its body ran, or nil when it did not
    /// return within 5 s (it must never wait for a graph call).
    static func callbackOnAnotherThread(_ gate: JACKGraphCallGate, mode: Int32 = 0, body: @escaping @Sendable () -> Void = {}) -> Bool? {
        let ran = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            gate.latencyCallback(mode: mode) { body(); ran.store(true, ordering: .relaxed) }
            done.signal()
        }
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        return ran.load(ordering: .relaxed)
    }

    @Test func outsideAGraphCallTheCallbackRunsAndNothingIsOwed() {
        let gate = JACKGraphCallGate()
        #expect(Self.callbackOnAnotherThread(gate, mode: 0) == true)
        #expect(Self.callbackOnAnotherThread(gate, mode: 1) == true)
        #expect(gate.graphCall { 42 } == 42)
        #expect(gate.takeOwedModes().isEmpty)
    }

    @Test func duringAGraphCallTheCallbackReturnsAtOnceWithoutRunningAndItsModeIsOwed() {
        let gate = JACKGraphCallGate()
        let ran = gate.graphCall { Self.callbackOnAnotherThread(gate, mode: 1) }
        #expect(ran == false, "the callback ran (true) or waited for the graph call (nil): \(String(describing: ran))")
        #expect(gate.takeOwedModes() == [1])
        // Taken once: nothing owed afterwards.
        #expect(gate.takeOwedModes().isEmpty)
        let both = gate.graphCall { [Self.callbackOnAnotherThread(gate, mode: 1), Self.callbackOnAnotherThread(gate, mode: 0)] }
        #expect(both == [false, false])
        #expect(gate.takeOwedModes() == [0, 1])
    }

    @Test func aGraphCallWaitsForARunningCallback() {
        let gate = JACKGraphCallGate()
        let order = Mutex<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            gate.latencyCallback(mode: 0) {
                entered.signal()
                _ = release.wait(timeout: .now() + 5)
                order.withLock { $0.append("callback") }
            }
        }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { release.signal() }
        gate.graphCall { order.withLock { $0.append("graph call") } }
        #expect(order.withLock { $0 } == ["callback", "graph call"])
        #expect(gate.takeOwedModes().isEmpty)
    }
}
