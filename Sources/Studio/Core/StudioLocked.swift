import Foundation

/// A value behind a lock, for state that holds non-Sendable parts (instruments) and is only ever
/// touched inside `withLock`. Control threads only: never used on the audio thread.
final class StudioLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
