import Foundation
import Horatio

/// Parses the JSON Lines recording format (see `Recording`). Every problem is a
/// `RecordingError` naming the line; nothing is skipped silently. Blank lines are allowed.
///
/// Bounded: a file larger than `RecordingLimits.maximumBytes` or with more frames than
/// `maximumFrames` is refused, and a gap between frames (or before the first) longer than
/// `maximumGap` (10 s) is shortened to it, later frames moving earlier, with a `RecordingWarning`.
/// Times are read in the canonical form the writer uses (`Recording.canonicalTime`), so a file read,
/// written and read again gives the same frames, and writing it again gives the same bytes.
public enum RecordingReader {
    /// A recording and what the reader changed on the way.
    public struct Result: Sendable, Hashable {
        public var recording: Recording
        public var warnings: [RecordingWarning]
    }

    /// Parses a whole recording from bytes (warnings dropped; `read` keeps them).
    public static func parse(_ bytes: [UInt8], limits: RecordingLimits = RecordingLimits()) throws(RecordingError) -> Recording {
        try read(bytes, limits: limits).recording
    }

    /// Parses a whole recording from text (warnings dropped; `read` keeps them).
    public static func parse(_ text: String, limits: RecordingLimits = RecordingLimits()) throws(RecordingError) -> Recording {
        try read(text, limits: limits).recording
    }

    /// Parses a whole recording from bytes, with the warnings.
    public static func read(_ bytes: [UInt8], limits: RecordingLimits = RecordingLimits()) throws(RecordingError) -> Result {
        guard bytes.count <= limits.maximumBytes else {
            throw RecordingError(line: 1, .fileTooLarge(bytes: bytes.count, limit: limits.maximumBytes))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw RecordingError(line: 1, .notUTF8) }
        return try read(text, limits: limits)
    }

    /// Parses a whole recording from text, with the warnings.
    public static func read(_ text: String, limits: RecordingLimits = RecordingLimits()) throws(RecordingError) -> Result {
        guard text.utf8.count <= limits.maximumBytes else {
            throw RecordingError(line: 1, .fileTooLarge(bytes: text.utf8.count, limit: limits.maximumBytes))
        }
        var recording = Recording()
        var warnings: [RecordingWarning] = []
        var sawHeader = false
        var previousTime = -Double.infinity
        // The time the file gives the previous frame (0 before the first), and how much earlier every
        // frame from here on moves because of shortened gaps.
        var previousFileTime = 0.0
        var shift = 0.0
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let object = try jsonObject(line, lineNumber)
            if !sawHeader {
                try readHeader(object, lineNumber, into: &recording)
                sawHeader = true
                continue
            }
            guard recording.frames.count < limits.maximumFrames else {
                throw RecordingError(line: lineNumber, .tooManyFrames(limit: limits.maximumFrames))
            }
            var frame = try readFrame(object, lineNumber)
            let fileTime = Recording.canonicalTime(frame.timestamp)
            guard fileTime >= previousTime else {
                throw RecordingError(line: lineNumber, .timeWentBackwards(previous: previousTime, time: fileTime))
            }
            previousTime = fileTime
            // A microsecond of slack: a gap written as exactly the limit reads back within rounding of it.
            let gap = fileTime - previousFileTime
            if gap > limits.maximumGap + 1e-6 {
                shift += gap - limits.maximumGap
                warnings.append(RecordingWarning(line: lineNumber, gap: gap, shortenedTo: limits.maximumGap))
            }
            previousFileTime = fileTime
            frame.timestamp = Recording.canonicalTime(fileTime - shift)
            recording.frames.append(frame)
        }
        guard sawHeader else { throw RecordingError(line: max(lineNumber, 1), .empty) }
        return Result(recording: recording, warnings: warnings)
    }

    static func jsonObject(_ line: Substring, _ n: Int) throws(RecordingError) -> [String: Any] {
        let data = Data(line.utf8)
        guard let any = try? JSONSerialization.jsonObject(with: data, options: []),
              let object = any as? [String: Any] else { throw RecordingError(line: n, .notJSONObject) }
        return object
    }

    static func readHeader(_ o: [String: Any], _ n: Int, into r: inout Recording) throws(RecordingError) {
        guard let format = o["format"] else { throw RecordingError(line: n, .missingField("format")) }
        guard let name = format as? String else { throw RecordingError(line: n, .wrongType(field: "format", expected: "a string")) }
        guard name == Recording.formatName else { throw RecordingError(line: n, .wrongFormat(name)) }
        let version = try integer(o, "version", n)
        guard version >= 1 else { throw RecordingError(line: n, .outOfRange(field: "version", value: Double(version))) }
        guard version <= Recording.currentVersion else { throw RecordingError(line: n, .unsupportedVersion(version)) }
        r.version = version
        r.created = (o["created"] as? String) ?? ""
        r.note = (o["note"] as? String) ?? ""
    }

    static func readFrame(_ o: [String: Any], _ n: Int) throws(RecordingError) -> TrackingFrame {
        let t = try number(o, "t", n)
        guard t >= 0, t < 1e9 else { throw RecordingError(line: n, .outOfRange(field: "t", value: t)) }
        let kinds = ["face", "hand", "touch", "ended"].filter { o[$0] != nil }
        guard kinds.count == 1 else { throw RecordingError(line: n, .unknownFrameKind) }
        switch kinds[0] {
        case "face":
            guard let face = o["face"] as? [String: Any] else {
                throw RecordingError(line: n, .wrongType(field: "face", expected: "an object"))
            }
            var frame = FaceFrame(timestamp: t)
            if let blendAny = face["blend"] {
                guard let blend = blendAny as? [String: Any] else {
                    throw RecordingError(line: n, .wrongType(field: "blend", expected: "an object"))
                }
                for (name, value) in blend {
                    guard let shape = ARKitBlendshape(normalisedName: name), shape.name == name else {
                        throw RecordingError(line: n, .unknownBlendshape(name))
                    }
                    let v = try number(value, "blend.\(name)", n)
                    guard (0...1).contains(v) else { throw RecordingError(line: n, .outOfRange(field: "blend.\(name)", value: v)) }
                    frame.blendshapes[shape] = Float(v)
                }
            }
            if let headAny = face["head"] {
                guard let head = headAny as? [Any], head.count == 3 else {
                    throw RecordingError(line: n, .wrongType(field: "head", expected: "an array of 3 numbers"))
                }
                var angles: [Float] = []
                for (k, a) in head.enumerated() {
                    let v = try number(a, "head[\(k)]", n)
                    guard abs(v) <= 360 else { throw RecordingError(line: n, .outOfRange(field: "head[\(k)]", value: v)) }
                    angles.append(Float(v))
                }
                frame.head = HeadRotation(yaw: angles[0], pitch: angles[1], roll: angles[2])
            }
            return .face(frame)
        case "hand":
            guard let hand = o["hand"] as? [String: Any] else {
                throw RecordingError(line: n, .wrongType(field: "hand", expected: "an object"))
            }
            let slot = try slotNumber(hand, n)
            let side = (hand["side"] as? String).map(Handedness.init(parsing:)) ?? .unknown
            let confidence = hand["conf"] == nil ? 1 : try number(hand, "conf", n)
            guard (0...1).contains(confidence) else { throw RecordingError(line: n, .outOfRange(field: "conf", value: confidence)) }
            guard let lmAny = hand["lm"] else { throw RecordingError(line: n, .missingField("lm")) }
            guard let lm = lmAny as? [Any] else { throw RecordingError(line: n, .wrongType(field: "lm", expected: "an array")) }
            guard lm.count == 63 else { throw RecordingError(line: n, .landmarkCount(lm.count)) }
            var values: [Float] = []
            values.reserveCapacity(63)
            for (k, a) in lm.enumerated() {
                let v = try number(a, "lm[\(k)]", n)
                guard abs(v) <= 1e6 else { throw RecordingError(line: n, .outOfRange(field: "lm[\(k)]", value: v)) }
                values.append(Float(v))
            }
            let points = (0..<21).map { SIMD3(values[3 * $0], values[3 * $0 + 1], values[3 * $0 + 2]) }
            return .hand(HandFrame(slot: slot, timestamp: t, landmarks: points, handedness: side, confidence: Float(confidence)))
        case "touch":
            guard let touch = o["touch"] as? [String: Any] else {
                throw RecordingError(line: n, .wrongType(field: "touch", expected: "an object"))
            }
            let slot = try slotNumber(touch, n)
            var xyp: [Float] = []
            for field in ["x", "y", "p"] {
                let v = try number(touch, field, n)
                guard (0...1).contains(v) else { throw RecordingError(line: n, .outOfRange(field: field, value: v)) }
                xyp.append(Float(v))
            }
            return .touch(TouchFrame(slot: slot, timestamp: t, x: xyp[0], y: xyp[1], pressure: xyp[2]))
        default:
            guard let name = o["ended"] as? String else {
                throw RecordingError(line: n, .wrongType(field: "ended", expected: "a source name"))
            }
            guard let id = InputSourceID(name) else { throw RecordingError(line: n, .unknownSource(name)) }
            return .ended(id, timestamp: t)
        }
    }

    static func slotNumber(_ o: [String: Any], _ n: Int) throws(RecordingError) -> Int {
        let slot = try integer(o, "slot", n)
        guard InputSourceID.slots.contains(slot) else { throw RecordingError(line: n, .outOfRange(field: "slot", value: Double(slot))) }
        return slot
    }

    static func number(_ o: [String: Any], _ field: String, _ n: Int) throws(RecordingError) -> Double {
        guard let value = o[field] else { throw RecordingError(line: n, .missingField(field)) }
        return try number(value, field, n)
    }

    static func number(_ value: Any, _ field: String, _ n: Int) throws(RecordingError) -> Double {
        // JSONSerialization gives NSNumber for numbers and booleans alike; a boolean has the
        // Objective-C type "c" (char), and true/false must not pass as 1/0.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
            throw RecordingError(line: n, .wrongType(field: field, expected: "a number"))
        }
        let v = number.doubleValue
        guard v.isFinite else { throw RecordingError(line: n, .outOfRange(field: field, value: v)) }
        return v
    }

    static func integer(_ o: [String: Any], _ field: String, _ n: Int) throws(RecordingError) -> Int {
        let v = try number(o, field, n)
        guard v.rounded() == v, abs(v) < 1e9 else { throw RecordingError(line: n, .wrongType(field: field, expected: "an integer")) }
        return Int(v)
    }
}
