/// ZIG SIM (iOS/Android). Addresses are `/<deviceUUID>/<cmd>` or `/ZIGSIM/<deviceUUID>/<cmd>`
/// with a user-set UUID, so only the last address part is matched.
///
/// - `face<arkitname>` (lower case, e.g. `facejawopen`) `f`: blendshape by name.
/// - `facerotation ffff`: head quaternion x, y, z, w.
/// - `touch<i>1 f` / `touch<i>2 f`: x / y of touch i in −1…1 from the screen centre, y down;
///   `touchforce<i> f` (1.0 = an average press, clamped to 0…1 as pressure); `touchradius<i>` ignored.
///
/// ZIG SIM's touch index i is the position in the current touch list, not a stable id: it
/// shifts when an earlier finger lifts. So at the end of each packet the new points are
/// matched to the previous ones by proximity (greedy nearest pairs within `matchRadius`,
/// in 0…1 screen units); unmatched new points take free slots, unmatched old ones end.
/// ZIG SIM sends one bundle per frame, so a packet with other ZIG SIM data but no touch
/// means no finger is down.
public struct ZIGSIMAdapter: Sendable {
    public var matchRadius: Float
    private var points: [Int: (x: Float?, y: Float?, force: Float?)] = [:]
    private var sawZIGData = false
    /// Slots currently driven by ZIG SIM touches.
    private var owned: Set<Int> = []

    public init(matchRadius: Float = 0.25) { self.matchRadius = matchRadius }

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard let slash = message.address.utf8.lastIndex(of: UInt8(ascii: "/")),
              slash != message.address.utf8.startIndex else { return nil }
        let command = message.address[message.address.index(after: slash)...].lowercased()
        let a = message.arguments
        if command.hasPrefix("face") {
            let rest = command.dropFirst(4)
            if rest == "rotation" {
                guard a.count == 4, let x = a[0].floatValue, let y = a[1].floatValue, let z = a[2].floatValue,
                      let w = a[3].floatValue, let head = HeadRotation(quaternionX: x, y: y, z: z, w: w)
                else { return .rejected("ZIG SIM facerotation needs a quaternion") }
                frame.setHead(head)
            } else if let shape = ARKitBlendshape(normalisedName: rest) {
                guard a.count == 1, let v = a[0].floatValue else { return .rejected("ZIG SIM \(command) needs one number") }
                frame.setBlendshape(shape, v)
            } else if ["position", "lookatposition", "lefteyeposition", "righteyeposition"].contains(String(rest)) {
                // Recognised; Prospero does not use face or eye positions.
            } else {
                return nil
            }
            sawZIGData = true
            return .accepted
        }
        if command.hasPrefix("touch") {
            let rest = command.dropFirst(5)
            if rest.hasPrefix("radius") {
                guard Int(rest.dropFirst(6)) != nil else { return nil }
            } else if rest.hasPrefix("force") {
                guard let i = Int(rest.dropFirst(5)), i >= 0 else { return nil }
                guard a.count == 1, let f = a[0].floatValue else { return .rejected("ZIG SIM touchforce needs one number") }
                points[i, default: (nil, nil, nil)].force = f
            } else {
                guard rest.count >= 2, let axis = rest.last, axis == "1" || axis == "2",
                      let i = Int(rest.dropLast()), i >= 0 else { return nil }
                guard a.count == 1, let v = a[0].floatValue, v.isFinite else {
                    return .rejected("ZIG SIM \(command) needs one number")
                }
                if axis == "1" { points[i, default: (nil, nil, nil)].x = v } else { points[i, default: (nil, nil, nil)].y = v }
            }
            sawZIGData = true
            return .accepted
        }
        return nil
    }

    /// Matches this packet's touch points to the previous slots (see the type's comment).
    public mutating func packetEnded(into frame: inout FrameAssembly) {
        defer { points = [:]; sawZIGData = false }
        guard sawZIGData else { return }
        // Complete points in −1…1 → 0…1.
        let fresh: [(x: Float, y: Float, p: Float)] = points.keys.sorted().compactMap { i in
            guard let x = points[i]?.x, let y = points[i]?.y else { return nil }
            let force = points[i]?.force ?? 1
            return ((x + 1) / 2, (y + 1) / 2, force.isFinite ? min(max(force, 0), 1) : 1)
        }
        var pairs: [(distance: Float, new: Int, slot: Int)] = []
        for (n, p) in fresh.enumerated() {
            for slot in owned {
                guard let old = frame.touches[slot] else { continue }
                let dx = min(max(p.x, 0), 1) - old.x, dy = min(max(p.y, 0), 1) - old.y
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= matchRadius { pairs.append((d, n, slot)) }
            }
        }
        pairs.sort { ($0.distance, $0.new, $0.slot) < ($1.distance, $1.new, $1.slot) }
        var slotForNew: [Int: Int] = [:]
        var usedSlots = Set<Int>()
        for pair in pairs where slotForNew[pair.new] == nil && !usedSlots.contains(pair.slot) {
            slotForNew[pair.new] = pair.slot
            usedSlots.insert(pair.slot)
        }
        for slot in owned.subtracting(usedSlots) { frame.endTouch(slot: slot) }
        owned = usedSlots
        for (n, p) in fresh.enumerated() {
            if let slot = slotForNew[n] {
                frame.setTouch(slot: slot, x: p.x, y: p.y, pressure: p.p)
            } else if let slot = frame.freeTouchSlot(excluding: owned) {
                owned.insert(slot)
                frame.setTouch(slot: slot, x: p.x, y: p.y, pressure: p.p)
            }
        }
    }
}
