/// A 14-bit MIDI value (0…16383): pitch bend, song position, 14-bit controllers, RPN/NRPN numbers and values.
///
/// On the wire it travels as two 7-bit bytes, least significant first for pitch bend and song position,
/// and as MSB/LSB controller pairs for 14-bit CCs and RPNs.
@frozen
public struct MIDIUInt14: Sendable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: UInt16

    public static let min = MIDIUInt14(unchecked: 0)
    public static let max = MIDIUInt14(unchecked: 16383)
    /// The pitch-bend centre (no bend): 8192 = 0x2000.
    public static let center = MIDIUInt14(unchecked: 8192)

    /// A value in 0…16383, or nil.
    @inlinable
    public init?<T: BinaryInteger>(_ value: T) {
        guard value >= 0, value <= 16383 else { return nil }
        rawValue = UInt16(value)
    }

    /// The value clamped to 0…16383.
    @inlinable
    public init<T: BinaryInteger>(clamping value: T) {
        rawValue = value < 0 ? 0 : value > 16383 ? 16383 : UInt16(value)
    }

    @inlinable
    public init(integerLiteral value: UInt16) {
        precondition(value <= 16383, "14-bit MIDI literal \(value) is above 16383")
        rawValue = value
    }

    /// Joins a most significant and a least significant 7-bit half.
    @inlinable
    public init(msb: MIDIUInt7, lsb: MIDIUInt7) {
        rawValue = UInt16(msb.rawValue) << 7 | UInt16(lsb.rawValue)
    }

    @usableFromInline
    init(unchecked value: UInt16) { rawValue = value }

    /// Bits 7…13.
    @inlinable public var msb: MIDIUInt7 { MIDIUInt7(unchecked: UInt8(rawValue >> 7)) }
    /// Bits 0…6.
    @inlinable public var lsb: MIDIUInt7 { MIDIUInt7(unchecked: UInt8(rawValue & 0x7F)) }

    @inlinable public var intValue: Int { Int(rawValue) }

    /// The value mapped to 0…1 (16383 → 1).
    @inlinable public var normalized: Double { Double(rawValue) / 16383 }

    /// Signed offset from the centre: −8192…8191 (pitch bend convention).
    @inlinable public var signedFromCenter: Int { Int(rawValue) - 8192 }

    /// Pitch-bend position in −1…1: −1 at 0, 0 at 8192, +1 at 16383.
    /// The two halves are scaled separately so that both extremes reach ±1 exactly.
    @inlinable public var bipolar: Double {
        let s = signedFromCenter
        return s < 0 ? Double(s) / 8192 : Double(s) / 8191
    }

    /// The 14-bit value for a pitch-bend position in −1…1 (clamped; NaN gives the centre).
    /// Inverse of `bipolar`, rounding to the nearest step.
    @inlinable
    public init(bipolar x: Double) {
        guard !x.isNaN else { self = .center; return }
        let c = Swift.max(-1, Swift.min(1, x))
        let s = c < 0 ? (c * 8192).rounded() : (c * 8191).rounded()
        rawValue = UInt16(8192 + Int(s))
    }

    /// The 14-bit value for a signed offset from the centre (clamped to −8192…8191).
    @inlinable
    public init(signedFromCenter s: Int) {
        self.init(clamping: s + 8192)
    }

    @inlinable public static func < (a: MIDIUInt14, b: MIDIUInt14) -> Bool { a.rawValue < b.rawValue }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int.self)
        guard let v = MIDIUInt14(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "14-bit MIDI value \(value) is outside 0…16383"))
        }
        self = v
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Int(rawValue))
    }
}
