/// One touch point at one instant.
public struct TouchFrame: Sendable, Hashable {
    /// Touch slot 0…3. Stable for as long as the finger stays down (adapters match by session
    /// id or by proximity when the sender's indices shift).
    public var slot: Int
    /// Seconds on the receiver's monotonic clock (or since the start of a recording).
    public var timestamp: Double
    /// 0…1 from the left edge.
    public var x: Float
    /// 0…1 from the top edge (y down, like the hand landmarks).
    public var y: Float
    /// 0…1; 1 when the sender reports no pressure.
    public var pressure: Float

    public init(slot: Int, timestamp: Double, x: Float, y: Float, pressure: Float = 1) {
        self.slot = slot
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.pressure = pressure
    }
}
