import Horatio

/// The sources a sender's open frame changed, collected while its messages are handled and
/// turned into frames when `OSCFrameAssembler` closes that sender's frame (see its rules).
public struct FrameAssembly: Sendable {
    /// Receive time of the packet being assembled (the latest of a closing frame), seconds.
    public var time: Double = 0
    /// The latest full state of each source (blendshapes accumulate across packets,
    /// because Face Cap and ZIG SIM send one message per shape).
    public var face = FaceFrame(timestamp: 0)
    public var hands: [HandFrame?] = Array(repeating: nil, count: 4)
    public var touches: [TouchFrame?] = Array(repeating: nil, count: 4)
    /// Which sources the open frames touched, by `InputSourceID.denseIndex`.
    var changed = Array(repeating: false, count: InputSourceID.count)
    var endedNow = Array(repeating: false, count: InputSourceID.count)
    /// The sender whose message is being handled, and the sender that last touched each source:
    /// closing a sender's frame emits only its sources.
    var owner: OSCInputFormat?
    var touchedBy = [OSCInputFormat?](repeating: nil, count: InputSourceID.count)

    public init() {}

    public mutating func setBlendshape(_ shape: ARKitBlendshape, _ weight: Float) {
        face.blendshapes[shape] = weight
        mark(.face)
    }

    public mutating func setHead(_ head: HeadRotation) {
        guard head.yaw.isFinite, head.pitch.isFinite, head.roll.isFinite else { return }
        face.head = head
        mark(.face)
    }

    public mutating func endFace() {
        face = FaceFrame(timestamp: time)
        end(.face)
    }

    /// Stores a hand; ignored when the slot is outside 0…3 or a landmark is not finite.
    public mutating func setHand(slot: Int, landmarks: [SIMD3<Float>], handedness: Handedness, confidence: Float) {
        guard InputSourceID.slots.contains(slot), landmarks.count == HandLandmark.count,
              landmarks.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return }
        let c = confidence.isFinite ? min(max(confidence, 0), 1) : 1
        hands[slot] = HandFrame(slot: slot, timestamp: time, landmarks: landmarks, handedness: handedness, confidence: c)
        mark(.hand(slot))
    }

    public mutating func endHand(slot: Int) {
        guard InputSourceID.slots.contains(slot), hands[slot] != nil else { return }
        hands[slot] = nil
        end(.hand(slot))
    }

    /// Stores a touch with x, y clamped to 0…1; ignored for slots outside 0…3 or non-finite values.
    public mutating func setTouch(slot: Int, x: Float, y: Float, pressure: Float = 1) {
        guard InputSourceID.slots.contains(slot), x.isFinite, y.isFinite else { return }
        let p = pressure.isFinite ? min(max(pressure, 0), 1) : 1
        touches[slot] = TouchFrame(slot: slot, timestamp: time, x: min(max(x, 0), 1), y: min(max(y, 0), 1), pressure: p)
        mark(.touch(slot))
    }

    public mutating func endTouch(slot: Int) {
        guard InputSourceID.slots.contains(slot), touches[slot] != nil else { return }
        touches[slot] = nil
        end(.touch(slot))
    }

    /// The lowest touch slot not in use and not in `excluding`, or nil when all four are taken.
    public func freeTouchSlot(excluding: Set<Int> = []) -> Int? {
        InputSourceID.slots.first { touches[$0] == nil && !excluding.contains($0) }
    }

    mutating func mark(_ id: InputSourceID) {
        // An end earlier in the same packet stays: a new finger in a freed slot is a new note.
        changed[id.denseIndex] = true
        touchedBy[id.denseIndex] = owner
    }

    mutating func end(_ id: InputSourceID) {
        changed[id.denseIndex] = false
        endedNow[id.denseIndex] = true
        touchedBy[id.denseIndex] = owner
    }

    /// The frames for every source `owner`'s frame changed (every changed source when nil), in
    /// `InputSourceID.all` order (an end before a new frame when a slot was freed and re-taken in
    /// one frame), and a reset of their marks.
    mutating func flush(owner: OSCInputFormat? = nil) -> [TrackingFrame] {
        var out: [TrackingFrame] = []
        for id in InputSourceID.all {
            let k = id.denseIndex
            if let owner, touchedBy[k] != owner { continue }
            if endedNow[k] {
                out.append(.ended(id, timestamp: time))
            }
            if changed[k] {
                switch id {
                case .face: face.timestamp = time; out.append(.face(face))
                case .hand(let s): if var h = hands[s] { h.timestamp = time; out.append(.hand(h)) }
                case .touch(let s): if var t = touches[s] { t.timestamp = time; out.append(.touch(t)) }
                }
            }
            changed[k] = false
            endedNow[k] = false
        }
        return out
    }
}
