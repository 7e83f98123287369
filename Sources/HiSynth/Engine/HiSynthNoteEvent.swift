/// A note starting or stopping at a sample of the engine's running clock, for the piano roll.
public struct HiSynthNoteEvent: Sendable, Hashable {
    /// MIDI note 0…127.
    public var note: UInt8
    /// True for a note-on, false for a note-off.
    public var isOn: Bool
    /// Samples the engine had rendered when the event took effect (its running clock).
    public var frame: Int64

    public init(note: UInt8, isOn: Bool, frame: Int64) {
        self.note = note
        self.isOn = isOn
        self.frame = frame
    }

    /// Packed into one word for the lock-free log: frame in the low 48 bits (≈ 200 years at 44.1 kHz),
    /// note in 7 bits, the on bit above it.
    var packed: UInt64 {
        UInt64(truncatingIfNeeded: frame) & 0xFFFF_FFFF_FFFF | UInt64(note & 0x7F) << 48 | (isOn ? 1 << 55 : 0)
    }

    init(packed: UInt64) {
        frame = Int64(packed & 0xFFFF_FFFF_FFFF)
        note = UInt8((packed >> 48) & 0x7F)
        isOn = packed & (1 << 55) != 0
    }
}
