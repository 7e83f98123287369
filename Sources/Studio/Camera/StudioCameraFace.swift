/// A tracked face: ARKit blendshape weights 0…1 by name, head angles in degrees (`HeadRotation` convention).
public struct StudioCameraFace: Sendable, Equatable {
    public var blend: [String: Double]
    public var yaw: Double
    public var pitch: Double
    public var roll: Double

    public init(blend: [String: Double], yaw: Double, pitch: Double, roll: Double) {
        self.blend = blend
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }
}
