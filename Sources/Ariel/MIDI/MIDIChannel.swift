/// A MIDI channel, stored as on the wire (0…15); musicians count them 1…16 (`number`).
@frozen
public struct MIDIChannel: Sendable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// 0…15, the low nibble of a channel status byte.
    public let rawValue: UInt8

    /// A channel from its wire index 0…15, or nil.
    @inlinable
    public init?<T: BinaryInteger>(_ index: T) {
        guard index >= 0, index <= 15 else { return nil }
        rawValue = UInt8(index)
    }

    /// A channel from the number musicians use, 1…16, or nil.
    @inlinable
    public init?(number: Int) {
        guard let c = MIDIChannel(number - 1) else { return nil }
        self = c
    }

    @inlinable
    public init(integerLiteral value: UInt8) {
        precondition(value <= 15, "MIDI channel literal \(value) is above 15 (channels are 0…15 on the wire)")
        rawValue = value
    }

    @usableFromInline
    init(unchecked value: UInt8) { rawValue = value }

    /// 1…16.
    @inlinable public var number: Int { Int(rawValue) + 1 }
    @inlinable public var index: Int { Int(rawValue) }

    public static let allChannels: [MIDIChannel] = (0..<16).map { MIDIChannel(unchecked: UInt8($0)) }

    @inlinable public static func < (a: MIDIChannel, b: MIDIChannel) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "ch\(number)" }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int.self)
        guard let v = MIDIChannel(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "MIDI channel index \(value) is outside 0…15"))
        }
        self = v
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(Int(rawValue))
    }
}
