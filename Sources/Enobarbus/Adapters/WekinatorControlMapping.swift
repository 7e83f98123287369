/// How Wekinator's `/wek/outputs` (M numbers, trained by the user, usually 0…1) play Prospero's
/// instruments: as a learned face for the face instruments and as MIDI controllers for the hands.
///
/// The usual loop: a face or hand sender → Prospero (`--wekinator` sends its features to `/wek/inputs`)
/// → Wekinator, trained by demonstration → `/wek/outputs` back to Prospero's input port. Train as many
/// outputs as the mapping below uses, each 0…1:
///
/// - **Face** (Hecate): outputs 0…5 are the blendshapes Hecate reads, in `faceBlendshapes` order
///   (jawOpen, browInnerUp, cheekPuff, mouthPucker, mouthSmileLeft, mouthSmileRight); outputs 6…8 are
///   head yaw, pitch and roll, 0…1 spanning ±`headRangeDegrees` (0.5 is the centre). Missing outputs
///   stay neutral; values are clamped. While outputs keep arriving they replace the tracked face.
/// - **MIDI** (hands): output k (k < 12) → CC 20 + k (the free controllers 20…31), 0…1 → 0…127.
public enum WekinatorControlMapping {
    /// The blendshapes outputs 0…5 drive, in order.
    public static let faceBlendshapes: [ARKitBlendshape] = [.jawOpen, .browInnerUp, .cheekPuff, .mouthPucker, .mouthSmileLeft, .mouthSmileRight]
    /// Head angle at output 0 or 1 (degrees either side of centre).
    public static let headRangeDegrees: Float = 30
    /// Outputs the face mapping reads.
    public static let faceOutputCount = faceBlendshapes.count + 3
    /// The first controller number and how many outputs become controllers.
    public static let firstController = 20
    public static let controllerCount = 12

    /// The face `outputs` stand for, at `time` (seconds). Non-finite outputs count as neutral.
    public static func face(_ outputs: [Float], at time: Double) -> FaceFrame {
        var frame = FaceFrame(timestamp: time)
        for (k, shape) in faceBlendshapes.enumerated() where k < outputs.count && outputs[k].isFinite {
            frame.blendshapes[shape] = min(max(outputs[k], 0), 1)
        }
        func angle(_ k: Int) -> Float {
            guard k < outputs.count, outputs[k].isFinite else { return 0 }
            return (min(max(outputs[k], 0), 1) * 2 - 1) * headRangeDegrees
        }
        let b = faceBlendshapes.count
        frame.head = HeadRotation(yaw: angle(b), pitch: angle(b + 1), roll: angle(b + 2))
        return frame
    }

    /// (controller number, value 0…127) for each of the first `controllerCount` outputs; non-finite → 0.
    public static func controllers(_ outputs: [Float]) -> [(controller: Int, value: Int)] {
        outputs.prefix(controllerCount).enumerated().map { k, v in
            (firstController + k, v.isFinite ? Int((min(max(v, 0), 1) * 127).rounded()) : 0)
        }
    }
}
