/// A 7-bit MIDI data value (0…127): a note number, velocity, controller number or value.
///
/// Out-of-range values are unrepresentable: `init?(_:)` rejects them, `init(clamping:)` clamps them.
/// Integer literals are checked when the value is built (a literal above 127 is a programming error).
@frozen
public struct MIDIUInt7: Sendable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: UInt8

    public static let min = MIDIUInt7(unchecked: 0)
    public static let max = MIDIUInt7(unchecked: 127)

    /// A value in 0…127, or nil.
    @inlinable
    public init?<T: BinaryInteger>(_ value: T) {
        guard value >= 0, value <= 127 else { return nil }
        rawValue = UInt8(value)
    }

    /// The value clamped to 0…127.
    @inlinable
    public init<T: BinaryInteger>(clamping value: T) {
        rawValue = value < 0 ? 0 : value > 127 ? 127 : UInt8(value)
    }

    @inlinable
    public init(integerLiteral value: UInt8) {
        precondition(value <= 127, "MIDI data byte literal \(value) is above 127")
        rawValue = value
    }

    @usableFromInline
    init(unchecked value: UInt8) { rawValue = value }

    /// The value as an `Int` (0…127).
    @inlinable public var intValue: Int { Int(rawValue) }

    /// The value mapped to 0…1 (127 → 1).
    @inlinable public var normalized: Double { Double(rawValue) / 127 }

    @inlinable public static func < (a: MIDIUInt7, b: MIDIUInt7) -> Bool { a.rawValue < b.rawValue }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int.self)
        guard let v = MIDIUInt7(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "MIDI data value \(value) is outside 0…127"))
        }
        self = v
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Int(rawValue))
    }
}
