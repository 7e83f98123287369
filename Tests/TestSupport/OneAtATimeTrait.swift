import Synchronization
import Testing

/// Runs the test cases of every suite that shares a ``Resource`` one at a time, across suites and targets (all test
/// targets share one process).
///
/// `.serialized` orders the cases of one suite; the suites themselves still run side by side. A headless Chromium
/// with its GPU process and a studio takes most of a core, and the camera bridge's models the rest: two browsers
/// beside the other suites and a build made pages miss their generous bounds. Each such case waits its turn here
/// (in order of arrival) instead.
public struct OneAtATimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the cases share.
    public struct Resource: Sendable {
        fileprivate let gate: Gate
        fileprivate init() { gate = Gate() }

        /// A headless Chromium (every browser suite), or the camera bridge's models.
        public static let heavyPeer = Resource()
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

/// A first-come, first-served lock that suspends its waiters (no thread is held while a case waits).
final class Gate: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if now { continuation.resume() }
        }
    }

    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()  // the lock passes to it, still held
        }
        next?.resume()
    }
}

extension Trait where Self == OneAtATimeTrait {
    /// Each case waits until no other case that shares `resource` runs (``OneAtATimeTrait``).
    public static func oneAtATime(_ resource: OneAtATimeTrait.Resource = .heavyPeer) -> Self { Self(resource: resource) }
}
