import Enobarbus
import Horatio
import InstrumentSettings

/// One line of the camera bridge's output in `--frames-stdin` mode (scripts/camera/prospero_camera.py
/// documents the format): the ready line with the face mesh's contour edges, or the answer to one frame
/// (a face, or hands with their 21 landmarks).
public enum StudioCameraBridgeLine: Sendable, Equatable {
    case ready(contours: [[Int]])
    case frame(StudioCameraResult)

    /// A line is at most 64 KiB (468 points are about 7 KiB), 4 levels deep, 2048 members per array.
    public static let limits = JSONReader.Limits(maximumBytes: 64 * 1024, maximumDepth: 4, maximumMembers: 2048, rejectsDuplicateKeys: true)
    /// Landmarks a face mesh reports (MediaPipe's 468; the refined mesh has 478).
    public static let maximumPoints = 478
    /// Hands the hands model reports at once (the bridge's slots 0…3, as `/prospero/hand`).
    public static let maximumHands = 4

    /// The line's meaning, or an error naming what is wrong with it (code `bad_bridge_line`).
    public static func parse(_ bytes: some Collection<UInt8>) throws(StudioError) -> StudioCameraBridgeLine {
        let value: StudioValue
        do throws(StudioError) { value = try StudioValue(json: bytes, limits: limits) } catch { throw bad(error.message) }
        guard let o = value.object else { throw bad("not a JSON object") }
        if o["ready"] == .bool(true) {
            var contours: [[Int]] = []
            for edge in o["contours"]?.array ?? [] {
                guard let pair = edge.array, pair.count == 2, let a = index(pair[0]), let b = index(pair[1]) else {
                    throw bad("a contour edge is not two landmark indices 0…\(maximumPoints - 1)")
                }
                contours.append([a, b])
            }
            return .ready(contours: contours)
        }
        guard let id = o["id"]?.number, id >= 0, id <= Double(UInt32.max), id == id.rounded(),
              let stream = o["stream"]?.number, stream >= 0, stream <= Double(UInt16.max), stream == stream.rounded() else {
            throw bad("a frame line needs a whole `id` (UInt32) and `stream` (UInt16)")
        }
        var result = StudioCameraResult(id: UInt32(id), stream: UInt16(stream))
        if let error = o["error"] {
            guard let text = error.string else { throw bad("`error` is not a string") }
            result.error = String(text.prefix(200))
            return .frame(result)
        }
        if let ms = o["ms"] {
            guard let t = ms.number, t.isFinite, t >= 0 else { throw bad("`ms` is not a time") }
            result.trackingMilliseconds = t
        }
        if let ended = o["ended"] {
            guard ended == .string("face") else { throw bad("`ended` names no face") }
            result.ended = true
        }
        if let face = o["face"] {
            guard let f = face.object, let blend = f["blend"]?.object, let head = f["head"]?.array, head.count == 3 else {
                throw bad("`face` needs `blend` {name: weight} and `head` [yaw, pitch, roll]")
            }
            var weights: [String: Double] = [:]
            for (name, w) in blend {
                guard ARKitBlendshape(normalisedName: name) != nil else { throw bad("unknown blendshape '\(name.prefix(40))'") }
                guard let v = w.number, v.isFinite else { throw bad("blendshape \(name) is not a number") }
                weights[name] = min(max(v, 0), 1)
            }
            var angles: [Double] = []
            for a in head {
                guard let v = a.number, v.isFinite, abs(v) <= 180 else { throw bad("a head angle is not −180…180 degrees") }
                angles.append(v)
            }
            result.face = StudioCameraFace(blend: weights, yaw: angles[0], pitch: angles[1], roll: angles[2])
        }
        if let hands = o["hands"] {
            guard let list = hands.array, list.count <= maximumHands else { throw bad("`hands` must be a list of at most \(maximumHands) hands") }
            for entry in list { result.hands.append(try hand(entry)) }
            guard Set(result.hands.map(\.slot)).count == result.hands.count else { throw bad("two hands in one slot") }
        }
        if let ended = o["handsEnded"] {
            guard let list = ended.array, list.count <= maximumHands else { throw bad("`handsEnded` must list at most \(maximumHands) slots") }
            for slot in list {
                guard let k = slotNumber(slot) else { throw bad("a hand slot is not 0…\(maximumHands - 1)") }
                result.endedHands.append(k)
            }
        }
        if let points = o["points"] {
            guard let list = points.array, list.count % 2 == 0, list.count <= 2 * maximumPoints else {
                throw bad("`points` must be x, y pairs, at most \(maximumPoints)")
            }
            var xy: [Float] = []
            xy.reserveCapacity(list.count)
            for p in list {
                // MediaPipe places landmarks of a face at the edge a little outside the image.
                guard let v = p.number, v.isFinite, v >= -1, v <= 2 else { throw bad("a point is not an image coordinate") }
                xy.append(Float(v))
            }
            result.points = xy
        }
        return .frame(result)
    }

    /// `{"slot": 0…3, "side": "left"|"right", "conf": 0…1, "lm": [63 numbers]}`.
    private static func hand(_ value: StudioValue) throws(StudioError) -> StudioCameraHand {
        guard let h = value.object, let slot = h["slot"].flatMap(slotNumber) else { throw bad("a hand needs a `slot` 0…\(maximumHands - 1)") }
        guard let side = h["side"]?.string, side == "left" || side == "right" else { throw bad("a hand's `side` is not left or right") }
        guard let conf = h["conf"]?.number, conf.isFinite, (0...1).contains(conf) else { throw bad("a hand's `conf` is not 0…1") }
        guard let lm = h["lm"]?.array, lm.count == 3 * StudioCameraHand.landmarkCount else {
            throw bad("a hand's `lm` must be \(StudioCameraHand.landmarkCount) landmarks x, y, z")
        }
        var values: [Float] = []
        values.reserveCapacity(lm.count)
        for (i, v) in lm.enumerated() {
            // x, y: a hand at the edge has landmarks a little outside the image; z: relative depth, small.
            guard let n = v.number, n.isFinite, i % 3 == 2 ? abs(n) <= 10 : (-1...2).contains(n) else {
                throw bad("a hand landmark is not an image coordinate")
            }
            values.append(Float(n))
        }
        return StudioCameraHand(slot: slot, side: side, confidence: conf, landmarks: values)
    }

    private static func slotNumber(_ v: StudioValue) -> Int? {
        guard let n = v.number, n >= 0, n < Double(maximumHands), n == n.rounded() else { return nil }
        return Int(n)
    }

    private static func index(_ v: StudioValue) -> Int? {
        guard let n = v.number, n >= 0, n < Double(maximumPoints), n == n.rounded() else { return nil }
        return Int(n)
    }

    private static func bad(_ why: String) -> StudioError { StudioError(code: "bad_bridge_line", message: "camera bridge: \(why)") }
}
