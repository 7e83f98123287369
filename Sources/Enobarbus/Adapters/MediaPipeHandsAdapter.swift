/// cansik/mediapipe-osc hands: `/mediapipe/hands` with a hand count, then x, y, z,
/// visibility for each of the 21 landmarks of each hand (84 numbers per hand).
///
/// The sender gives no handedness (reported `.unknown`) and no per-hand confidence
/// (reported 1). Hand k of the list goes to slot k; hands missing from a message that
/// were present before end.
public struct MediaPipeHandsAdapter: Sendable {
    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard message.address == "/mediapipe/hands" else { return nil }
        let a = message.arguments
        guard let count = a.first?.intValue, count >= 0 else { return .rejected("mediapipe/hands needs a hand count first") }
        guard a.count == 1 + 84 * count else {
            return .rejected("mediapipe/hands: \(count) hands need \(1 + 84 * count) numbers, got \(a.count)")
        }
        for hand in 0..<min(count, 4) {
            var points: [SIMD3<Float>] = []
            points.reserveCapacity(21)
            for k in 0..<21 {
                let base = 1 + 84 * hand + 4 * k
                guard let x = a[base].floatValue, let y = a[base + 1].floatValue, let z = a[base + 2].floatValue
                else { return .rejected("mediapipe/hands: value \(base) is not a number") }
                points.append(SIMD3(x, y, z))
            }
            frame.setHand(slot: hand, landmarks: points, handedness: .unknown, confidence: 1)
        }
        for slot in min(count, 4)..<4 { frame.endHand(slot: slot) }
        return .accepted
    }
}
