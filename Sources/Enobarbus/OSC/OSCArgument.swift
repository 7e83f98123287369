/// One OSC argument, with its type tag.
///
/// Covers OSC 1.0's required tags (i f s b) and the common extended tags
/// (h t d S c r m T F N I and arrays `[ ]`).
public enum OSCArgument: Sendable, Hashable {
    /// `i`: 32-bit big-endian two's complement integer.
    case int32(Int32)
    /// `f`: 32-bit big-endian IEEE 754 float.
    case float32(Float)
    /// `s`: ASCII string.
    case string(String)
    /// `b`: blob of arbitrary bytes.
    case blob([UInt8])
    /// `h`: 64-bit big-endian integer.
    case int64(Int64)
    /// `t`: OSC time tag.
    case timeTag(OSCTimeTag)
    /// `d`: 64-bit big-endian IEEE 754 double.
    case float64(Double)
    /// `S`: symbol (an ASCII string that names something).
    case symbol(String)
    /// `c`: an ASCII character sent as 32 bits.
    case character(UInt8)
    /// `r`: 32-bit RGBA colour, red in the most significant byte.
    case rgba(UInt32)
    /// `m`: 4-byte MIDI message: port id, status byte, data1, data2.
    case midi(port: UInt8, status: UInt8, data1: UInt8, data2: UInt8)
    /// `T`: true (no data bytes).
    case `true`
    /// `F`: false (no data bytes).
    case `false`
    /// `N`: nil (no data bytes).
    case `nil`
    /// `I`: impulse / infinitum (no data bytes).
    case impulse
    /// `[` … `]`: an array of arguments.
    case array([OSCArgument])

    /// The type tag character(s) this argument is written with (`[ff]` for an array of two floats).
    public var typeTag: String {
        switch self {
        case .int32: return "i"
        case .float32: return "f"
        case .string: return "s"
        case .blob: return "b"
        case .int64: return "h"
        case .timeTag: return "t"
        case .float64: return "d"
        case .symbol: return "S"
        case .character: return "c"
        case .rgba: return "r"
        case .midi: return "m"
        case .true: return "T"
        case .false: return "F"
        case .nil: return "N"
        case .impulse: return "I"
        case .array(let items): return "[" + items.map(\.typeTag).joined() + "]"
        }
    }

    /// The numeric value of `i f h d` (and `T`/`F` as 1/0) as a Float; nil for anything else.
    ///
    /// Senders disagree on int versus float (Unreal receivers accept either for Face Cap's `/W`),
    /// so adapters read numbers through this.
    @inlinable
    public var floatValue: Float? {
        switch self {
        case .float32(let v): return v
        case .int32(let v): return Float(v)
        case .float64(let v): return Float(v)
        case .int64(let v): return Float(v)
        case .true: return 1
        case .false: return 0
        default: return nil
        }
    }

    /// The integer value of `i h` (and of `f d` when they hold a whole number); nil otherwise.
    @inlinable
    public var intValue: Int? {
        switch self {
        case .int32(let v): return Int(v)
        case .int64(let v): return Int(exactly: v)
        case .float32(let v): return v.isFinite && v.rounded() == v && abs(v) < 1e9 ? Int(v) : nil
        case .float64(let v): return v.isFinite && v.rounded() == v && abs(v) < 1e15 ? Int(v) : nil
        default: return nil
        }
    }

    /// The text of `s` or `S`; nil otherwise.
    @inlinable
    public var stringValue: String? {
        switch self {
        case .string(let s), .symbol(let s): return s
        default: return nil
        }
    }
}
