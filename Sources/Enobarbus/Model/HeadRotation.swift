import Foundation

/// Head orientation as yaw, pitch and roll in degrees, each in −180…180.
///
/// Convention (right-handed, as ARKit's face anchor seen from the camera): X to the
/// camera's right, Y up, Z from the face toward the camera. The rotation is
/// R = R_Y(yaw) · R_X(pitch) · R_Z(roll), angles by the right-hand rule, so:
/// - yaw > 0: the nose turns toward the camera's right (the performer's own left);
/// - pitch > 0: the nose turns down;
/// - roll > 0: the top of the head tilts toward the camera's left (counter-clockwise as the camera sees it).
/// The neutral, camera-facing pose is (0, 0, 0).
public struct HeadRotation: Sendable, Hashable, Codable {
    public var yaw: Float
    public var pitch: Float
    public var roll: Float

    public init(yaw: Float = 0, pitch: Float = 0, roll: Float = 0) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    public static let neutral = HeadRotation()

    /// Converts a unit quaternion (x, y, z, w) to yaw/pitch/roll in this convention.
    /// The quaternion is normalised first; a zero or non-finite quaternion gives nil.
    public init?(quaternionX x: Float, y: Float, z: Float, w: Float) {
        let norm = (x * x + y * y + z * z + w * w).squareRoot()
        guard norm.isFinite, norm > 1e-6 else { return nil }
        let (x, y, z, w) = (x / norm, y / norm, z / norm, w / norm)
        let m02 = 2 * (x * z + y * w)
        let m22 = 1 - 2 * (x * x + y * y)
        let m10 = 2 * (x * y + z * w)
        let m11 = 1 - 2 * (x * x + z * z)
        let m12 = 2 * (y * z - x * w)
        let degrees: Float = 180 / .pi
        pitch = asin(min(max(-m12, -1), 1)) * degrees
        yaw = atan2(m02, m22) * degrees
        roll = atan2(m10, m11) * degrees
    }
}
