import Synchronization
import Testing

/// Runs the test cases of every suite that shares a ``Resource`` at most the resource's width at a time, across
/// suites and targets (all test targets share one process).
///
/// `.serialized` orders the cases of one suite; the suites themselves still run side by side. A headless Chromium
/// with its GPU process and a studio takes most of a core, and the camera bridge's models as much: left to run side by
/// side, every browser suite at once beside the other suites made pages miss their generous bounds. Each such case
/// waits its turn here (in order of arrival) instead. Two at a time keep both cores of a small machine busy (one at a
/// time left a third of the run's CPU idle while the browser cases ran one after another, `scripts/test` spending
/// most of its time on them).
public struct TakingTurnsTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the cases share.
    public struct Resource: Sendable {
        fileprivate let gate: Gate
        fileprivate init(width: Int) { gate = Gate(width: width) }

        /// A headless Chromium (every browser suite), or the camera bridge's models: two at a time.
        public static let heavyPeer = Resource(width: 2)
    }

    let resource: Resource

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        await resource.gate.enter()
        do {
            try await function()
        } catch {
            resource.gate.leave()
            throw error
        }
        resource.gate.leave()
    }
}

/// A first-come, first-served counting semaphore that suspends its waiters (no thread is held while a case waits).
final class Gate: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    /// `width`: how many holders at once (at least 1).
    init(width: Int) {
        precondition(width >= 1, "a gate lets at least one case through")
        state = Mutex(State(free: width))
    }

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()  // the place passes to it
        }
        next?.resume()
    }
}

extension Trait where Self == TakingTurnsTrait {
    /// Each case waits until fewer than the resource's width of the cases that share `resource` run
    /// (``TakingTurnsTrait``).
    public static func takingTurns(_ resource: TakingTurnsTrait.Resource = .heavyPeer) -> Self { Self(resource: resource) }
}
