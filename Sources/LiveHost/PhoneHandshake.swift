import Enobarbus

/// A handshake that asks a phone app to stream to this host (iFacialMocap, FaceMotion3D): sent when the
/// host starts and again every `repeatInterval` seconds until the app's first datagram arrives, so the
/// app may be opened after Prospero.
public struct PhoneHandshake: Sendable {
    public var destination: DatagramSender
    public var payload: [UInt8]
    /// The sender whose first decoded datagram ends the repetition.
    public var answeredBy: InputSender
    /// Seconds between tries (0.5…60).
    public var repeatInterval: Double

    public init(destination: DatagramSender, payload: [UInt8], answeredBy: InputSender, repeatInterval: Double = 2) {
        self.destination = destination
        self.payload = payload
        self.answeredBy = answeredBy
        self.repeatInterval = min(max(repeatInterval.isFinite ? repeatInterval : 2, 0.5), 60)
    }

    /// iFacialMocap's handshake to `phone` (its address) on the app's port 49983 (protocols.md §1.3).
    public static func iFacialMocap(phone: String, version2: Bool = false) -> PhoneHandshake {
        let kind = IFacialMocapHandshake.iFacialMocap(version2: version2)
        return PhoneHandshake(destination: DatagramSender(address: phone, port: kind.phonePort), payload: kind.payload, answeredBy: .iFacialMocap)
    }
}
