/// Snaps note numbers to the nearest member of a scale in a key.
///
/// Works on continuous note numbers (a hand's height mapped to 48.0…72.0, say) as well as
/// integers. Output is a MIDI note number, not clamped, so callers decide what to do at 0 and 127.
///
///     let q = ScaleQuantizer(key: .d, scale: .dorian)
///     q.quantize(63.4)                     // 62 (D) is 1.4 away, 64 (E) is 0.6: → 64
///     q.quantize(63, direction: .down)     // 62
public struct ScaleQuantizer: Sendable, Hashable {
    /// How a note between two scale members is resolved.
    public enum Direction: String, Sendable, Hashable, Codable, CaseIterable {
        /// The closer member; exactly halfway goes down.
        case nearest
        /// The lowest member at or above the note.
        case up
        /// The highest member at or below the note.
        case down
    }

    public let key: MusicalKey
    public let scale: Scale
    /// The pitch classes allowed, already rotated into the key.
    public let members: PitchClassSet

    public init(key: MusicalKey, scale: Scale) {
        self.key = key
        self.scale = scale
        self.members = scale.pitchClasses(in: key)
    }

    /// Whether `note` (a MIDI note number) is in the scale.
    @inlinable
    public func contains(_ note: Int) -> Bool { members.containsSemitone(note) }

    /// The scale member for a continuous note number (e.g. 61.3), resolved by `direction`.
    /// Non-finite input returns the key's tonic in octave 4.
    public func quantize(_ note: Double, direction: Direction = .nearest) -> Int {
        guard note.isFinite else { return 60 + key.rawValue }
        let clamped = min(max(note, -1_000), 1_000)
        let below = member(atOrBelow: Int(clamped.rounded(.down)))
        let above = member(atOrAbove: Int(clamped.rounded(.up)))
        switch direction {
        case .down: return below
        case .up: return above
        case .nearest: return (clamped - Double(below)) <= (Double(above) - clamped) ? below : above
        }
    }

    /// The scale member for an integer note, resolved by `direction`.
    public func quantize(_ note: Int, direction: Direction = .nearest) -> Int {
        quantize(Double(note), direction: direction)
    }

    /// The scale member nearest a pitch, or nil when that member is outside 0…127.
    public func quantize(_ pitch: Pitch, direction: Direction = .nearest) -> Pitch? {
        Pitch(quantize(pitch.midiNoteNumber, direction: direction))
    }

    /// The highest member ≤ `note`.
    public func member(atOrBelow note: Int) -> Int {
        var n = note
        while !contains(n) { n -= 1 }  // every scale holds its tonic, so at most 11 steps
        return n
    }

    /// The lowest member ≥ `note`.
    public func member(atOrAbove note: Int) -> Int {
        var n = note
        while !contains(n) { n += 1 }
        return n
    }

    /// Every member in `range` (MIDI note numbers), ascending: the notes a zone layout offers.
    public func notes(in range: ClosedRange<Int>) -> [Int] { range.filter(contains) }
}
