/// Every sender Enobarbus decodes, for counters and displays: the OSC senders of `OSCFrameAssembler`
/// (`OSCInputFormat`) and the ones `SenderDatagramDecoder` handles itself.
public enum InputSender: String, CaseIterable, Sendable, Hashable, Comparable, CustomStringConvertible {
    case native, faceCap, zigSim, mediaPipeHands, touchOSC, openStageControl, tuio
    case iFacialMocap, liveLinkFace, faceOSC, mpmocap, visage, wekinator

    public init(_ format: OSCInputFormat) {
        switch format {
        case .native: self = .native
        case .faceCap: self = .faceCap
        case .zigSim: self = .zigSim
        case .mediaPipeHands: self = .mediaPipeHands
        case .touchOSC: self = .touchOSC
        case .openStageControl: self = .openStageControl
        case .tuio: self = .tuio
        }
    }

    /// The name people know the sender by ("Live Link Face").
    public var description: String {
        switch self {
        case .native: "Prospero OSC"
        case .faceCap: "Face Cap"
        case .zigSim: "ZIG SIM"
        case .mediaPipeHands: "mediapipe-osc"
        case .touchOSC: "TouchOSC"
        case .openStageControl: "Open Stage Control"
        case .tuio: "TUIO"
        case .iFacialMocap: "iFacialMocap"
        case .liveLinkFace: "Live Link Face"
        case .faceOSC: "FaceOSC"
        case .mpmocap: "mpmocap/Phiz"
        case .visage: "Visage"
        case .wekinator: "Wekinator"
        }
    }

    /// Declaration order (the order of `allCases`), so counters print in a stable order.
    public static func < (a: InputSender, b: InputSender) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
