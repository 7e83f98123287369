/// Where a live host sends datagrams of its own: Wekinator feature vectors, a phone app's handshake.
/// The UDP edge implements it (`UDPDatagramSink`); a test keeps a list.
public protocol DatagramSink: AnyObject, Sendable {
    /// Sends `bytes` as one datagram to `destination` without waiting; false when it could not be sent.
    @discardableResult
    func send(_ bytes: [UInt8], to destination: DatagramSender) -> Bool
}
