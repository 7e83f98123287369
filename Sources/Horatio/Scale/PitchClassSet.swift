/// A set of pitch classes as a 12-bit mask (bit n = pitch class n above the reference).
///
/// Allocation-free and cheap to test membership in, so quantisers can use it per frame.
public struct PitchClassSet: Sendable, Hashable, Codable, SetAlgebra, CustomStringConvertible {
    public var mask: UInt16

    @inlinable
    public init(mask: UInt16) { self.mask = mask & 0x0FFF }

    public init() { mask = 0 }

    public init(_ semitones: [Int]) {
        mask = 0
        for s in semitones { insertSemitone(s) }
    }

    @inlinable
    public func containsSemitone(_ s: Int) -> Bool { mask & (1 << UInt16(((s % 12) + 12) % 12)) != 0 }

    @inlinable
    public mutating func insertSemitone(_ s: Int) { mask |= 1 << UInt16(((s % 12) + 12) % 12) }

    /// The members in ascending order, 0…11.
    public var semitones: [Int] { (0..<12).filter { containsSemitone($0) } }

    public var count: Int { mask.nonzeroBitCount }

    /// The same set with every member moved up `semitones` (rotating at the octave).
    public func rotated(by semitones: Int) -> PitchClassSet {
        let s = UInt16(((semitones % 12) + 12) % 12)
        return PitchClassSet(mask: ((mask << s) | (mask >> (12 - s))) & 0x0FFF)
    }

    public var description: String { "{" + semitones.map(String.init).joined(separator: ",") + "}" }

    // SetAlgebra over pitch classes.
    public func contains(_ member: PitchClass) -> Bool { containsSemitone(member.rawValue) }
    public func union(_ other: PitchClassSet) -> PitchClassSet { PitchClassSet(mask: mask | other.mask) }
    public func intersection(_ other: PitchClassSet) -> PitchClassSet { PitchClassSet(mask: mask & other.mask) }
    public func symmetricDifference(_ other: PitchClassSet) -> PitchClassSet { PitchClassSet(mask: mask ^ other.mask) }
    @discardableResult
    public mutating func insert(_ newMember: PitchClass) -> (inserted: Bool, memberAfterInsert: PitchClass) {
        let was = contains(newMember)
        insertSemitone(newMember.rawValue)
        return (!was, newMember)
    }
    @discardableResult
    public mutating func remove(_ member: PitchClass) -> PitchClass? {
        guard contains(member) else { return nil }
        mask &= ~(1 << UInt16(member.rawValue))
        return member
    }
    @discardableResult
    public mutating func update(with newMember: PitchClass) -> PitchClass? {
        let was = contains(newMember)
        insertSemitone(newMember.rawValue)
        return was ? newMember : nil
    }
    public mutating func formUnion(_ other: PitchClassSet) { mask |= other.mask }
    public mutating func formIntersection(_ other: PitchClassSet) { mask &= other.mask }
    public mutating func formSymmetricDifference(_ other: PitchClassSet) { mask ^= other.mask }
}
