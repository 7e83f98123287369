/// One independent `OneEuroFilter` per channel, sharing one tuning: e.g. 63 hand-landmark
/// coordinates, 52 blendshapes, or 3 head angles.
public struct OneEuroFilterBank: Sendable, Hashable {
    public private(set) var channels: [OneEuroFilter]

    public init(channelCount: Int, prototype: OneEuroFilter = OneEuroFilter()) {
        channels = Array(repeating: prototype, count: channelCount)
    }

    public var isBypassed: Bool {
        get { channels.first?.isBypassed ?? false }
        set { for k in channels.indices { channels[k].isBypassed = newValue } }
    }

    /// Filters `values` in place (extra values beyond the channel count are left alone).
    public mutating func filter(_ values: inout [Float], at time: Double) {
        for k in 0..<min(values.count, channels.count) {
            values[k] = Float(channels[k].filter(Double(values[k]), at: time))
        }
    }

    /// Smooths all 21 landmarks of a hand (x, y, z each a channel; the bank needs 63 channels).
    public mutating func filter(_ hand: HandFrame) -> HandFrame {
        var flat: [Float] = []
        flat.reserveCapacity(63)
        for p in hand.landmarks { flat.append(p.x); flat.append(p.y); flat.append(p.z) }
        filter(&flat, at: hand.timestamp)
        var out = hand
        for k in 0..<min(21, flat.count / 3) { out.landmarks[k] = SIMD3(flat[3 * k], flat[3 * k + 1], flat[3 * k + 2]) }
        return out
    }

    /// Re-seeds every channel.
    public mutating func reset() {
        for k in channels.indices { channels[k].reset() }
    }
}
