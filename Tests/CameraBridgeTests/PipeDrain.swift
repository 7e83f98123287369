import Foundation

/// The data a background read collected, handed over once.
final class PipeDrain: @unchecked Sendable {
    /// Starts reading `pipe` to its end on another thread (so a full stderr pipe cannot block the child).
    static func reading(_ pipe: Pipe) -> PipeDrain {
        let drain = PipeDrain()
        Thread.detachNewThread { drain.finish(pipe.fileHandleForReading.readDataToEndOfFile()) }
        return drain
    }

    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func finish(_ d: Data) { data = d; done.signal() }
    func wait() -> Data { done.wait(); return data }
}
