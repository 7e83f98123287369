import Horatio

/// Why an AHAP file cannot be read, naming the `Pattern` entry (0-based) and the field.
public struct HapticPatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// The bytes are not JSON.
        case json(JSONReadError)
        /// The top level is not an object.
        case notAnObject
        /// `Pattern` is missing or not an array.
        case missingPattern
        /// A required field is absent.
        case missingField(String)
        /// A field has the wrong JSON type.
        case wrongType(field: String, expected: String)
        /// An `EventType` that is not one of the four.
        case unknownEventType(String)
        /// A `ParameterID` that is not an event parameter (in `EventParameters`) or not a dynamic one.
        case unknownParameter(String)
        /// A curve of a parameter that cannot be curved (the envelope-time controls).
        case notACurveParameter(String)
        /// A pattern entry holds none of `Event`, `Parameter`, `ParameterCurve`, or more than one.
        case unknownEntry
        /// A number is not finite.
        case notFinite(field: String)
        /// More entries, parameters or points than the reader accepts (`HapticPattern.maximumEntries`).
        case tooLarge(String)
    }

    /// Index of the `Pattern` entry, nil for the top level.
    public var entry: Int?
    public var problem: Problem

    public init(entry: Int? = nil, _ problem: Problem) {
        self.entry = entry
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .json(let e): what = "\(e)"
        case .notAnObject: what = "the file is not a JSON object"
        case .missingPattern: what = "\"Pattern\" is missing or not an array"
        case .missingField(let f): what = "missing field \"\(f)\""
        case .wrongType(let f, let e): what = "field \"\(f)\" must be \(e)"
        case .unknownEventType(let t): what = "\(t.debugDescription) is not an event type (HapticTransient, HapticContinuous, AudioContinuous, AudioCustom)"
        case .unknownParameter(let p): what = "\(p.debugDescription) is not a known ParameterID here"
        case .notACurveParameter(let p): what = "\(p.debugDescription) cannot be used in a ParameterCurve"
        case .unknownEntry: what = "entry must hold exactly one of \"Event\", \"Parameter\", \"ParameterCurve\""
        case .notFinite(let f): what = "field \"\(f)\" is not a finite number"
        case .tooLarge(let f): what = "too many \(f)"
        }
        if let entry { return "AHAP Pattern[\(entry)]: \(what)" }
        return "AHAP: \(what)"
    }
}
