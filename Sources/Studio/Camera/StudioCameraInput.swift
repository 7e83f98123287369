import LiveHost

/// The pages' cameras as a ``DatagramSource``: the camera desk turns each tracked face into Prospero's
/// native OSC and pushes it here, so that it enters the studio's live input (merged with the UDP
/// senders, see `MergedDatagramSource`) and becomes the same frames any sender's do.
public final class StudioCameraInput: DatagramSource, @unchecked Sendable {
    private let deliver = StudioLocked<(@Sendable (Datagram) -> Void)?>(nil)

    public init() {}

    public var localAddress: String { "page cameras" }

    public func start(deliver: @escaping @Sendable (Datagram) -> Void) throws {
        self.deliver.withLock { $0 = deliver }
    }

    public func close() { deliver.withLock { $0 = nil } }

    /// Delivers `datagram` now (dropped when the input is not started).
    func push(_ datagram: Datagram) {
        deliver.withLock { $0 }?(datagram)
    }
}
