/// A meta event (FF type length data) from a track, kept byte-exact so unknown and malformed ones
/// survive a read/write round trip. The typed accessors decode the common types and return nil when
/// the type differs or the data has the wrong length.
public struct MIDIMetaEvent: Sendable, Hashable {
    public var type: UInt8
    public var data: [UInt8]

    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    // Type bytes of the defined meta events.
    public static let sequenceNumberType: UInt8 = 0x00
    public static let textType: UInt8 = 0x01
    public static let copyrightType: UInt8 = 0x02
    public static let trackNameType: UInt8 = 0x03
    public static let instrumentNameType: UInt8 = 0x04
    public static let lyricType: UInt8 = 0x05
    public static let markerType: UInt8 = 0x06
    public static let cuePointType: UInt8 = 0x07
    public static let channelPrefixType: UInt8 = 0x20
    public static let portType: UInt8 = 0x21
    public static let endOfTrackType: UInt8 = 0x2F
    public static let tempoType: UInt8 = 0x51
    public static let smpteOffsetType: UInt8 = 0x54
    public static let timeSignatureType: UInt8 = 0x58
    public static let keySignatureType: UInt8 = 0x59
    public static let sequencerSpecificType: UInt8 = 0x7F

    public static let endOfTrack = MIDIMetaEvent(type: endOfTrackType, data: [])

    /// Set Tempo in microseconds per quarter note (1…16 777 215; 500 000 = 120 BPM).
    public static func tempo(microsecondsPerQuarterNote us: Int) -> MIDIMetaEvent {
        let v = max(1, min(0xFF_FFFF, us))
        return MIDIMetaEvent(type: tempoType, data: [UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }

    /// Set Tempo from beats per minute (rounded to whole microseconds).
    public static func tempo(bpm: Double) -> MIDIMetaEvent {
        tempo(microsecondsPerQuarterNote: Int((60_000_000 / bpm).rounded()))
    }

    /// Time signature `numerator`/`denominator` (a power of two), MIDI clocks per metronome click,
    /// and notated 32nd notes per MIDI quarter note (normally 8).
    public static func timeSignature(numerator: Int, denominator: Int, clocksPerClick: Int = 24,
                                     thirtySecondNotesPerQuarter: Int = 8) -> MIDIMetaEvent {
        let power = max(0, min(7, denominator.trailingZeroBitCount))
        return MIDIMetaEvent(type: timeSignatureType,
                             data: [UInt8(clamping: numerator), UInt8(power), UInt8(clamping: clocksPerClick),
                                    UInt8(clamping: thirtySecondNotesPerQuarter)])
    }

    /// Key signature: −7…7 sharps (negative = flats), major or minor.
    public static func keySignature(sharps: Int, minor: Bool) -> MIDIMetaEvent {
        MIDIMetaEvent(type: keySignatureType, data: [UInt8(bitPattern: Int8(max(-7, min(7, sharps)))), minor ? 1 : 0])
    }

    /// A text-like event (types 0x01…0x0F) with Latin-1 text; characters above U+00FF become "?".
    public static func text(_ string: String, type: UInt8 = textType) -> MIDIMetaEvent {
        MIDIMetaEvent(type: type, data: string.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : 0x3F })
    }

    public static func trackName(_ name: String) -> MIDIMetaEvent { text(name, type: trackNameType) }

    /// SMPTE offset: hours (bits 5–6 hold the rate), minutes, seconds, frames, hundredths of a frame.
    public static func smpteOffset(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8,
                                   subframes: UInt8) -> MIDIMetaEvent {
        MIDIMetaEvent(type: smpteOffsetType, data: [hours, minutes, seconds, frames, subframes])
    }

    public var isEndOfTrack: Bool { type == Self.endOfTrackType }

    /// Microseconds per quarter note of a well-formed Set Tempo event (never 0).
    public var microsecondsPerQuarterNote: Int? {
        guard type == Self.tempoType, data.count == 3 else { return nil }
        let v = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
        return v > 0 ? v : nil
    }

    public var timeSignature: (numerator: Int, denominator: Int, clocksPerClick: Int, thirtySecondNotesPerQuarter: Int)? {
        guard type == Self.timeSignatureType, data.count == 4, data[1] < 16 else { return nil }
        return (Int(data[0]), 1 << Int(data[1]), Int(data[2]), Int(data[3]))
    }

    public var keySignature: (sharps: Int, minor: Bool)? {
        guard type == Self.keySignatureType, data.count == 2 else { return nil }
        return (Int(Int8(bitPattern: data[0])), data[1] != 0)
    }

    public var smpteOffset: (hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, subframes: UInt8)? {
        guard type == Self.smpteOffsetType, data.count == 5 else { return nil }
        return (data[0], data[1], data[2], data[3], data[4])
    }

    /// The text of types 0x01…0x0F, decoded as Latin-1 (every byte is a character, as mido does).
    public var text: String? {
        guard (0x01...0x0F).contains(type) else { return nil }
        return String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
    }
}
