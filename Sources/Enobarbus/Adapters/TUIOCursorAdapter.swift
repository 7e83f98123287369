/// TUIO 1.1 2D cursors: `/tuio/2Dcur alive s…`, `/tuio/2Dcur set s x y X Y m`,
/// `/tuio/2Dcur fseq n`, sent together in one bundle; x, y in 0…1 from the top-left.
///
/// TUIO's session ids are persistent per touch, so each session keeps its touch slot for
/// its whole life: a new session takes the lowest free slot, a session missing from
/// `alive` ends its slot. Sessions beyond four at once are ignored until a slot frees.
public struct TUIOCursorAdapter: Sendable {
    /// Session id → touch slot.
    public private(set) var slots: [Int32: Int] = [:]
    public private(set) var lastFrameSequence: Int32 = -1

    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard message.address == "/tuio/2Dcur" else { return nil }
        let a = message.arguments
        guard let command = a.first?.stringValue else { return .rejected("TUIO 2Dcur needs a command string") }
        switch command {
        case "alive":
            var alive = Set<Int32>()
            for item in a.dropFirst() {
                guard case .int32(let id) = item else { return .rejected("TUIO alive ids must be int32") }
                alive.insert(id)
            }
            for (session, slot) in slots where !alive.contains(session) {
                frame.endTouch(slot: slot)
                slots[session] = nil
            }
            return .accepted
        case "set":
            guard a.count >= 4, case .int32(let session) = a[1], let x = a[2].floatValue, let y = a[3].floatValue
            else { return .rejected("TUIO set needs session id, x, y (X, Y, m optional)") }
            if let slot = slots[session] {
                frame.setTouch(slot: slot, x: x, y: y)
            } else if let slot = frame.freeTouchSlot(excluding: Set(slots.values)) {
                slots[session] = slot
                frame.setTouch(slot: slot, x: x, y: y)
            }
            return .accepted
        case "fseq":
            guard a.count == 2, case .int32(let n) = a[1] else { return .rejected("TUIO fseq needs an int32") }
            lastFrameSequence = n
            return .accepted
        case "source":
            return .accepted
        default:
            return .rejected("TUIO 2Dcur command \(command) is not alive, set, fseq or source")
        }
    }
}
