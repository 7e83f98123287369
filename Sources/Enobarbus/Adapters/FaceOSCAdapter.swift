/// FaceOSC (Kyle McDonald, UDP 8338), protocols.md §1.4: `/found i`, then per frame a bundle of
/// `/pose/position ff`, `/pose/scale f`, `/pose/orientation fff`, `/gesture/… f` and optionally `/raw`.
///
/// Gestures are raw distances: at the end of each packet they are divided by the packet's
/// `/pose/scale`, averaged into a neutral over the first frames (`FaceOSCCalibration`), and mapped to
/// blendshapes as relative changes from it: mouth height → `jawOpen`; mouth widening →
/// `mouthSmileLeft/Right`, narrowing → `mouthPucker`; each eyebrow raised → `browOuterUp…`, both →
/// `browInnerUp`; each eye closing → `eyeBlink…`; nostrils → `noseSneer…`. Until calibrated, faces
/// come with neutral weights and the head only. FaceOSC's left and right are the image's, so with a
/// mirrored (selfie) capture they are the performer's own; `swapSides` exchanges them otherwise.
/// `/pose/orientation` is radians about x (pitch), y (yaw), z (roll), turned into degrees.
public struct FaceOSCAdapter: Sendable {
    public var calibration: FaceOSCCalibration
    public var swapSides = false
    private var gestures: [Float?] = Array(repeating: nil, count: FaceOSCGesture.allCases.count)
    private var scale: Float?
    private var sawFaceData = false

    public init(calibration: FaceOSCCalibration = FaceOSCCalibration()) { self.calibration = calibration }

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        let address = message.address
        guard address == "/found" || address == "/raw" || address.hasPrefix("/pose/") || address.hasPrefix("/gesture/")
        else { return nil }
        let a = message.arguments
        let numbers = a.compactMap { $0.floatValue }.filter(\.isFinite)
        switch address {
        case "/found":
            guard a.count == 1, let found = a[0].intValue else { return .rejected("FaceOSC /found needs 0 or 1") }
            if found == 0 { frame.endFace() }
            return .accepted
        case "/raw":
            guard numbers.count == a.count, a.count == 132 else { return .rejected("FaceOSC /raw needs 132 numbers") }
            return .accepted
        case "/pose/scale":
            guard numbers.count == 1, a.count == 1, numbers[0] > 0 else { return .rejected("FaceOSC /pose/scale needs one positive number") }
            scale = numbers[0]
            sawFaceData = true
            return .accepted
        case "/pose/position":
            guard numbers.count == 2, a.count == 2 else { return .rejected("FaceOSC /pose/position needs x, y") }
            return .accepted
        case "/pose/orientation":
            guard numbers.count == 3, a.count == 3 else { return .rejected("FaceOSC /pose/orientation needs 3 angles") }
            let degrees: Float = 180 / .pi
            frame.setHead(HeadRotation(yaw: numbers[1] * degrees, pitch: numbers[0] * degrees, roll: numbers[2] * degrees))
            sawFaceData = true
            return .accepted
        default:
            guard let gesture = FaceOSCGesture.byAddress[address] else { return nil }
            guard numbers.count == 1, a.count == 1, numbers[0] >= 0 else {
                return .rejected("FaceOSC \(address) needs one non-negative number")
            }
            gestures[gesture.rawValue] = numbers[0]
            sawFaceData = true
            return .accepted
        }
    }

    /// Normalises, calibrates and maps the packet's gestures (see the type's comment).
    public mutating func packetEnded(into frame: inout FrameAssembly) {
        defer {
            gestures = Array(repeating: nil, count: gestures.count)
            sawFaceData = false
        }
        guard sawFaceData else { return }
        frame.mark(.face)
        guard let scale, gestures.allSatisfy({ $0 != nil }) else { return }
        let normalised = gestures.map { $0! / scale }
        guard calibration.observe(normalised) else { return }
        func rise(_ g: FaceOSCGesture, _ span: Float) -> Float { max(0, calibration.change(g, in: normalised)) / span }
        func fall(_ g: FaceOSCGesture, _ span: Float) -> Float { max(0, -calibration.change(g, in: normalised)) / span }
        let c = calibration
        let sides: (ARKitBlendshape, ARKitBlendshape) -> (ARKitBlendshape, ARKitBlendshape) = { [swapSides] l, r in
            swapSides ? (r, l) : (l, r)
        }
        frame.setBlendshape(.jawOpen, rise(.mouthHeight, c.mouthOpenSpan))
        let smile = rise(.mouthWidth, c.smileSpan)
        frame.setBlendshape(.mouthSmileLeft, smile)
        frame.setBlendshape(.mouthSmileRight, smile)
        frame.setBlendshape(.mouthPucker, fall(.mouthWidth, c.puckerSpan))
        let brows = sides(.browOuterUpLeft, .browOuterUpRight)
        let browL = rise(.eyebrowLeft, c.browSpan), browR = rise(.eyebrowRight, c.browSpan)
        frame.setBlendshape(brows.0, browL)
        frame.setBlendshape(brows.1, browR)
        frame.setBlendshape(.browInnerUp, min(browL, browR))
        let blinks = sides(.eyeBlinkLeft, .eyeBlinkRight)
        frame.setBlendshape(blinks.0, fall(.eyeLeft, c.blinkSpan))
        frame.setBlendshape(blinks.1, fall(.eyeRight, c.blinkSpan))
        let sneer = rise(.nostrils, c.sneerSpan)
        frame.setBlendshape(.noseSneerLeft, sneer)
        frame.setBlendshape(.noseSneerRight, sneer)
    }

    /// The packet's scale is FaceOSC's per-frame value; a packet without one keeps the last.
    public var poseScale: Float? { scale }
}
