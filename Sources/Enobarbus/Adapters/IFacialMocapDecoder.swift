import Foundation

/// iFacialMocap (and FaceMotion3D, the same grammar) UDP text frames, protocols.md §1.3:
///
///     trackingStatus-1|mouthSmile_L-37|eyeBlink_R-2|…|=head#rx,ry,rz,px,py,pz|rightEye#rx,ry,rz|leftEye#rx,ry,rz|
///
/// Blendshapes are ARKit names with `_L`/`_R` suffixes and integer weights 0…100 (v1 separates name
/// and value with `-`, v2 with `&`); the head is Euler degrees (rx pitch, ry yaw, rz roll) and position
/// in metres. The TCP variant's `___iFacialMocap` frame terminator is accepted and dropped.
///
/// The frame is decoded whole or not at all (a typed error names the bad token), so one corrupt
/// datagram never half-updates a face. Names that are not ARKit blendshapes (newer builds add keys)
/// are skipped and counted in `unknownNames`. `trackingStatus-0` means the phone lost the face.
public struct IFacialMocapDecoder: Sendable {
    /// Maps iFacialMocap's Euler angles to `HeadRotation`. The app reports rx (nod), ry (turn), rz (tilt);
    /// the signs are taken as they come and are flipped here when a rig shows them reversed.
    public var yawSign: Float = 1
    public var pitchSign: Float = 1
    public var rollSign: Float = 1
    /// Unknown names skipped so far (the decoder is otherwise stateless).
    public private(set) var unknownNames = 0

    public init() {}

    /// The face in one datagram received at `time` (seconds): `.face(…)`, or `.ended(.face, …)` when the
    /// phone reports `trackingStatus-0`.
    public mutating func decode(_ bytes: [UInt8], at time: Double) throws(IFacialMocapDecodingError) -> TrackingFrame {
        guard !bytes.isEmpty, let whole = String(validating: bytes, as: UTF8.self) else { throw .notText }
        var text = Substring(whole)
        if text.hasSuffix("___iFacialMocap") { text = text.dropLast(15) }
        var face = FaceFrame(timestamp: time)
        var sawData = false
        for raw in text.split(separator: "|", omittingEmptySubsequences: true) {
            var token = raw.trimmingCharacters(in: .whitespacesAndNewlines)[...]
            if token.hasPrefix("=") { token = token.dropFirst() }
            if token.isEmpty { continue }
            if let hash = token.firstIndex(of: "#") {
                let name = token[..<hash]
                let numbers = token[token.index(after: hash)...].split(separator: ",", omittingEmptySubsequences: false)
                    .map { Float($0.trimmingCharacters(in: .whitespaces)) }
                guard numbers.allSatisfy({ $0?.isFinite == true }) else { throw .badTransform(token: String(token)) }
                let v = numbers.map { $0! }
                switch name {
                case "head":
                    guard v.count == 6 || v.count == 3 else { throw .badTransform(token: String(token)) }
                    face.head = HeadRotation(yaw: yawSign * v[1], pitch: pitchSign * v[0], roll: rollSign * v[2])
                case "rightEye", "leftEye":
                    guard v.count == 3 else { throw .badTransform(token: String(token)) }
                default:
                    unknownNames += 1
                }
                sawData = true
                continue
            }
            guard let sep = token.firstIndex(where: { $0 == "-" || $0 == "&" }) else {
                throw .missingSeparator(token: String(token))
            }
            let name = token[..<sep]
            guard let value = Float(token[token.index(after: sep)...]), value.isFinite, (0...100).contains(value) else {
                throw .badValue(token: String(token))
            }
            sawData = true
            if name == "trackingStatus" {
                if value == 0 { return .ended(.face, timestamp: time) }
                continue
            }
            guard let shape = ARKitBlendshape(normalisedName: name) else { unknownNames += 1; continue }
            face.blendshapes[shape] = value / 100
        }
        guard sawData else { throw .noFaceData }
        return .face(face)
    }
}
