/// Why a preset string or preset JSON was rejected, naming the section or field and the problem.
public enum HiSynthPresetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The string was empty (after trimming whitespace).
    case empty
    /// Fewer than the six colon-separated fields `name:OSC:ENV:FILTER:LFO:AFX`.
    case tooFewFields(found: Int)
    /// A parameter field is not strict standard base64.
    case badBase64(HiSynthPresetSection)
    /// A parameter field's bytes are not a valid raw DEFLATE stream.
    case corruptDeflate(HiSynthPresetSection)
    /// A parameter field's DEFLATE stream stops before its final block.
    case truncatedDeflate(HiSynthPresetSection)
    /// A parameter field inflates to more than `limit` bytes (the codec's cap on hostile input).
    case inflatedTooLarge(HiSynthPresetSection, limit: Int)
    /// A payload ends before `field` (`needed` bytes from `offset`, `available` in all).
    case shortPayload(HiSynthPresetSection, field: String, offset: Int, available: Int)
    /// A Float16 field holds NaN or ±infinity.
    case nonFinite(HiSynthPresetSection, field: String)
    /// An enum byte has no meaning (waveforms 0…5, reverb types 0…2).
    case enumOutOfRange(HiSynthPresetSection, field: String, code: Int8)
    /// An array's count byte is not the fixed count (2 layers, 3 LFOs).
    case wrongArrayCount(HiSynthPresetSection, field: String, count: Int, expected: Int)
    /// zlib failed to compress (out of memory); never seen with valid presets.
    case compressionFailed(HiSynthPresetSection)

    /// Preset JSON that is not JSON at all, or not an object where one is needed.
    case invalidJSON(String)
    /// A field the preset JSON must have is missing (`path` like `lfos[1].speed`).
    case missingField(String)
    /// A field holds the wrong kind of value (`expected` like "a number").
    case wrongType(String, expected: String)
    /// A waveform or reverb type name that does not exist.
    case unknownName(String, value: String, allowed: [String])
    /// A JSON array with the wrong number of entries (2 oscillators, 3 LFOs).
    case wrongCount(String, count: Int, expected: Int)
    /// A number that is not finite or rounds beyond Float16's ±65504.
    case outOfFloat16Range(String, value: Double)

    public var description: String {
        switch self {
        case .empty:
            "Empty preset."
        case .tooFewFields(let found):
            "A preset string has 6 fields separated by ':' (name:OSC:ENV:FILTER:LFO:AFX); found \(found)."
        case .badBase64(let section):
            "\(section): not valid base64."
        case .corruptDeflate(let section):
            "\(section): the compressed data is corrupt."
        case .truncatedDeflate(let section):
            "\(section): the compressed data is cut short."
        case .inflatedTooLarge(let section, let limit):
            "\(section): the data inflates to more than \(limit) bytes."
        case .shortPayload(let section, let field, let offset, let available):
            "\(section): the data ends before \(field) (at byte \(offset) of \(available))."
        case .nonFinite(let section, let field):
            "\(section): \(field) is not a finite number."
        case .enumOutOfRange(let section, let field, let code):
            "\(section): \(field) has no value for code \(code)."
        case .wrongArrayCount(let section, let field, let count, let expected):
            "\(section): \(field) holds \(count) values instead of \(expected)."
        case .compressionFailed(let section):
            "\(section): compression failed."
        case .invalidJSON(let detail):
            "Invalid preset JSON: \(detail)"
        case .missingField(let path):
            "Preset JSON: missing field \(path)."
        case .wrongType(let path, let expected):
            "Preset JSON: \(path) must be \(expected)."
        case .unknownName(let path, let value, let allowed):
            "Preset JSON: \(path) \"\(value)\" is not one of \(allowed.joined(separator: ", "))."
        case .wrongCount(let path, let count, let expected):
            "Preset JSON: \(path) has \(count) entries instead of \(expected)."
        case .outOfFloat16Range(let path, let value):
            "Preset JSON: \(path) = \(value) is outside the Float16 range ±65504."
        }
    }
}
