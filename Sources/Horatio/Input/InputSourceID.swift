/// Which performer input a frame, a note or a route belongs to.
///
/// Up to four hands and four touches can play at once, plus one face.
/// The identity is stable for as long as the tracker keeps the source,
/// so instruments key their active notes by it, never by MIDI channel.
public enum InputSourceID: Sendable, Hashable, Codable, CustomStringConvertible {
    case hand(Int)
    case touch(Int)
    case face

    /// Valid slot indices for hands and touches.
    public static let slots: ClosedRange<Int> = 0...3

    /// Every source the system can track, in a fixed order: hands, touches, face.
    public static let all: [InputSourceID] =
        slots.map { .hand($0) } + slots.map { .touch($0) } + [.face]

    /// A hand in slot `index`, or nil when the slot is outside 0...3.
    public static func validHand(_ index: Int) -> InputSourceID? {
        slots.contains(index) ? .hand(index) : nil
    }

    /// A touch in slot `index`, or nil when the slot is outside 0...3.
    public static func validTouch(_ index: Int) -> InputSourceID? {
        slots.contains(index) ? .touch(index) : nil
    }

    /// A dense index 0...8 (hands 0–3, touches 4–7, face 8) for fixed-size per-source tables.
    public var denseIndex: Int {
        switch self {
        case .hand(let i): return i
        case .touch(let i): return 4 + i
        case .face: return 8
        }
    }

    /// The number of distinct sources, the size of a table indexed by `denseIndex`.
    public static let count = 9

    /// The name used in files and on the command line: `hand0`…`hand3`, `touch0`…`touch3`, `face`.
    public var description: String {
        switch self {
        case .hand(let i): return "hand\(i)"
        case .touch(let i): return "touch\(i)"
        case .face: return "face"
        }
    }

    /// Parses `hand0`…`hand3`, `touch0`…`touch3` or `face`; nil for anything else.
    public init?(_ text: String) {
        if text == "face" { self = .face; return }
        for (prefix, make) in [("hand", InputSourceID.validHand), ("touch", InputSourceID.validTouch)] {
            guard text.hasPrefix(prefix) else { continue }
            let digits = text.dropFirst(prefix.count)
            guard digits.count == 1, let i = Int(digits), let id = make(i) else { return nil }
            self = id
            return
        }
        return nil
    }
}
