import Synchronization

/// The port a server listens on, known once it runs (shared by the server and its access check).
final class StudioBoundPort: Sendable {
    private let value = Atomic<Int>(-1)

    var port: Int? {
        get { value.load(ordering: .acquiring).nonNegative }
        set { value.store(newValue ?? -1, ordering: .releasing) }
    }
}

private extension Int {
    var nonNegative: Int? { self >= 0 ? self : nil }
}
