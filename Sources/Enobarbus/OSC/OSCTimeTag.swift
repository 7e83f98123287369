/// An OSC time tag: NTP 32.32 fixed point, seconds since 1900-01-01 plus a binary fraction.
///
/// The value 1 (seconds 0, fraction 1) is reserved for "immediately". Time tags
/// compare as their 64-bit raw values, which is also NTP order.
@frozen
public struct OSCTimeTag: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Seconds in the high 32 bits, fraction (units of 2⁻³² s) in the low 32 bits.
    public var rawValue: UInt64

    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    @inlinable
    public init(seconds: UInt32, fraction: UInt32) {
        rawValue = UInt64(seconds) << 32 | UInt64(fraction)
    }

    /// "Apply immediately": the reserved value 1.
    public static let immediately = OSCTimeTag(rawValue: 1)

    /// Whole seconds since 1900-01-01.
    @inlinable public var seconds: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    /// Fraction of a second in units of 2⁻³² s.
    @inlinable public var fraction: UInt32 { UInt32(truncatingIfNeeded: rawValue) }

    /// Seconds since 1900-01-01 as a Double (about 0.2 ns resolution is lost beyond 2⁵² ticks).
    public var secondsSince1900: Double { Double(seconds) + Double(fraction) / 4_294_967_296.0 }

    @inlinable
    public static func < (lhs: OSCTimeTag, rhs: OSCTimeTag) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        self == .immediately ? "immediately" : "\(seconds).\(fraction)"
    }
}
