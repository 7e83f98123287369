import Testing

/// Runs each test case on a dispatch queue of its own instead of Swift's cooperative pool.
///
/// The pool has as many threads as cores (two here), and a test that blocks (waits for a process, a socket, a
/// period of JACK's, `usleep`) holds one of them: two such tests stopped every other suite for as long as they
/// waited (tests of microseconds reported 36 s). On its own queue a test's waits cost nobody else a thread, so
/// the runner's other tests go on beside it. Put on every suite whose tests block.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        let executor = DispatchTaskExecutor(label: "test: \(test.name)")
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case on a thread of its own (``OwnThreadTrait``).
    public static var ownThread: Self { Self() }
}
