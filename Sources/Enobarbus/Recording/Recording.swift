import Foundation
import Horatio

/// A recorded input performance: normalised frames with their times.
///
/// ## File format (version 1): JSON Lines, UTF-8
/// Line 1 is a header object:
///
///     {"format":"prospero-recording","version":1,"created":"2026-11-22T02:30:00Z","note":"…"}
///
/// Every following line is one frame, `t` in seconds from the start of the recording
/// (non-decreasing, to the microsecond), and exactly one of:
///
///     {"t":0.016,"face":{"blend":{"jawOpen":0.42,"browInnerUp":0.1},"head":[12.5,-3,0.5]}}
///     {"t":0.020,"hand":{"slot":0,"side":"left","conf":0.97,"lm":[x0,y0,z0, … x20,y20,z20]}}
///     {"t":0.031,"touch":{"slot":1,"x":0.25,"y":0.8,"p":1}}
///     {"t":0.500,"ended":"touch1"}
///
/// `blend` lists only non-zero weights (0…1) by ARKit name; `head` is yaw, pitch, roll in
/// degrees (`HeadRotation`); `lm` is the 21 landmarks' x, y, z in MediaPipe order; touch x, y
/// and pressure are 0…1. Unknown header fields are ignored, so later versions can add some.
///
/// Optional header field `aspect`: the touch screen's width ÷ height (e.g. 0.4615 for a 9 : 19.5
/// portrait phone), so touch x and y (each 0…1 of their own side) can be turned into distances; the
/// games' scripts carry it. Older readers ignore it.
///
/// Why normalised frames rather than raw OSC packets: a recording then replays through the
/// same lifecycle and instruments whatever sender made it, stays readable and diffable, and
/// does not change meaning when an adapter is fixed. Raw packets would only test adapters,
/// which the codec and adapter tests cover. Times are written to the microsecond
/// (`canonicalTime`) and other numbers in Swift's shortest round-trip form, so a file read back
/// gives the same frames and writing them again gives the same bytes.
public struct Recording: Sendable, Hashable {
    public static let formatName = "prospero-recording"
    public static let currentVersion = 1

    public var version: Int
    /// When the recording was made (ISO 8601), as the header says; may be empty.
    public var created: String
    public var note: String
    /// The touch screen's width ÷ height (header field `aspect`), when known; > 0.
    public var aspectRatio: Double?
    /// Frames with `timestamp` in seconds from the start of the recording.
    public var frames: [TrackingFrame]

    public init(created: String = "", note: String = "", aspectRatio: Double? = nil, frames: [TrackingFrame] = []) {
        version = Self.currentVersion
        self.created = created
        self.note = note
        self.aspectRatio = aspectRatio
        self.frames = frames
    }

    /// The whole recording as JSON Lines text (header first, one frame per line, final newline).
    public func encoded() -> String {
        var text = Self.headerLine(created: created, note: note, aspectRatio: aspectRatio) + "\n"
        for frame in frames { text += Self.line(for: frame) + "\n" }
        return text
    }

    /// The header line for a new recording.
    public static func headerLine(created: String, note: String = "", aspectRatio: Double? = nil) -> String {
        let aspect = aspectRatio.map { ",\"aspect\":\(number($0))" } ?? ""
        return "{\"format\":\"\(formatName)\",\"version\":\(currentVersion),\"created\":\(jsonString(created)),\"note\":\(jsonString(note))\(aspect)}"
    }

    /// `seconds` rounded to the microsecond: the canonical form of a frame time. The writer writes
    /// times in it and the reader reads them into it, so reading, writing and reading again is exact
    /// whatever digits a file held (a time written with 60 decimal digits included).
    public static func canonicalTime(_ seconds: Double) -> Double {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return seconds }
        return (seconds * 1_000_000).rounded() / 1_000_000
    }

    /// One frame as one line of JSON (no newline), its `timestamp` written as `t` (to the microsecond).
    public static func line(for frame: TrackingFrame) -> String {
        let t = "{\"t\":\(number(canonicalTime(frame.timestamp))),"
        switch frame {
        case .face(let f):
            var blend: [String] = []
            for shape in ARKitBlendshape.allCases where f.blendshapes[shape] != 0 {
                blend.append("\"\(shape.name)\":\(number(f.blendshapes[shape]))")
            }
            let head = "[\(number(f.head.yaw)),\(number(f.head.pitch)),\(number(f.head.roll))]"
            return t + "\"face\":{\"blend\":{\(blend.joined(separator: ","))},\"head\":\(head)}}"
        case .hand(let h):
            var lm: [String] = []
            lm.reserveCapacity(63)
            for p in h.landmarks { lm.append(number(p.x)); lm.append(number(p.y)); lm.append(number(p.z)) }
            return t + "\"hand\":{\"slot\":\(h.slot),\"side\":\"\(h.handedness.rawValue)\",\"conf\":\(number(h.confidence)),\"lm\":[\(lm.joined(separator: ","))]}}"
        case .touch(let p):
            return t + "\"touch\":{\"slot\":\(p.slot),\"x\":\(number(p.x)),\"y\":\(number(p.y)),\"p\":\(number(p.pressure))}}"
        case .ended(let id, _):
            return t + "\"ended\":\"\(id)\"}"
        }
    }

    static func number(_ v: Float) -> String { v.isFinite ? "\(v)" : "0" }
    static func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }

    static func jsonString(_ s: String) -> String {
        JSONStringLiteral.quoted(s)
    }
}
