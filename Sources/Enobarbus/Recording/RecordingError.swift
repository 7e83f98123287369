/// Why a recording cannot be read, with the 1-based line it was found on.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The bytes are not UTF-8 text.
        case notUTF8
        /// No lines at all.
        case empty
        /// The line is not a JSON object.
        case notJSONObject
        /// The header's `format` is not `prospero-recording`.
        case wrongFormat(String)
        /// The header's `version` is newer than this reader understands.
        case unsupportedVersion(Int)
        /// A required field is absent.
        case missingField(String)
        /// A field has the wrong JSON type.
        case wrongType(field: String, expected: String)
        /// A number is non-finite or outside its documented range.
        case outOfRange(field: String, value: Double)
        /// A frame's time is earlier than the previous frame's.
        case timeWentBackwards(previous: Double, time: Double)
        /// A line has none of `face`, `hand`, `touch`, `ended`, or more than one.
        case unknownFrameKind
        /// A blendshape name that is not one of the 52.
        case unknownBlendshape(String)
        /// A source name that is not `face`, `hand0…3`, `touch0…3`.
        case unknownSource(String)
        /// A hand's landmark list does not hold 63 numbers.
        case landmarkCount(Int)
        /// The file is larger than `RecordingLimits.maximumBytes`.
        case fileTooLarge(bytes: Int, limit: Int)
        /// The file holds more frames than `RecordingLimits.maximumFrames`.
        case tooManyFrames(limit: Int)
    }

    /// 1-based line number (1 is the header).
    public var line: Int
    public var problem: Problem

    public init(line: Int, _ problem: Problem) {
        self.line = line
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .notUTF8: what = "file is not UTF-8 text"
        case .empty: what = "file is empty; expected a header line"
        case .notJSONObject: what = "line is not a JSON object"
        case .wrongFormat(let f): what = "format is \(f.debugDescription), expected \"prospero-recording\""
        case .unsupportedVersion(let v): what = "version \(v) is newer than this reader (\(Recording.currentVersion))"
        case .missingField(let f): what = "missing field \"\(f)\""
        case .wrongType(let f, let e): what = "field \"\(f)\" must be \(e)"
        case .outOfRange(let f, let v): what = "field \"\(f)\" value \(v) is out of range"
        case .timeWentBackwards(let p, let t): what = "time \(t) is earlier than the previous frame's \(p)"
        case .unknownFrameKind: what = "line must have exactly one of \"face\", \"hand\", \"touch\", \"ended\""
        case .unknownBlendshape(let n): what = "\(n.debugDescription) is not an ARKit blendshape name"
        case .unknownSource(let s): what = "\(s.debugDescription) is not a source (face, hand0…3, touch0…3)"
        case .landmarkCount(let n): what = "hand landmarks hold \(n) numbers, expected 63"
        case .fileTooLarge(let bytes, let limit): what = "file is \(bytes) bytes, more than the limit of \(limit) bytes"
        case .tooManyFrames(let limit): what = "more than \(limit) frames, the limit for one recording"
        }
        return "recording line \(line): \(what)"
    }
}
