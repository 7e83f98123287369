import Enobarbus

/// Feature vectors for Wekinator: the latest face and hand a ``LiveHost`` assembled, as `/wek/inputs`
/// (`WekinatorInputEncoder`'s layout: 52 blendshapes, then the 63 coordinates of one hand slot) to
/// `destination` (Wekinator listens on 127.0.0.1:6448), at most `maximumRate` vectors a second and
/// only when a face or that hand changed.
public struct WekinatorFeed: Sendable {
    public static let defaultDestination = DatagramSender(address: "127.0.0.1", port: 6448)
    public var destination: DatagramSender
    public var encoder: WekinatorInputEncoder
    /// Vectors a second at most (1…1000; Wekinator runs its models at about 100 Hz).
    public var maximumRate: Double

    public init(destination: DatagramSender = WekinatorFeed.defaultDestination, encoder: WekinatorInputEncoder = WekinatorInputEncoder(),
                maximumRate: Double = 100) {
        self.destination = destination
        self.encoder = encoder
        self.maximumRate = min(max(maximumRate.isFinite ? maximumRate : 100, 1), 1000)
    }
}
