/// Where a live host's input comes from: a UDP socket at the edge, a test's scripted list, later
/// a WebSocket. The source calls `deliver` for every datagram from its own thread, as soon as it
/// arrives; the host timestamps nothing itself.
public protocol DatagramSource: AnyObject, Sendable {
    /// What the source listens on, for the user ("127.0.0.1:9000").
    var localAddress: String { get }
    /// Starts delivering. Throws when the source cannot start (the port is taken).
    func start(deliver: @escaping @Sendable (Datagram) -> Void) throws
    /// Stops delivering; returns once no more `deliver` calls will come.
    func close()
}
