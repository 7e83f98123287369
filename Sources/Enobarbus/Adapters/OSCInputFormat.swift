/// The OSC senders `OSCFrameAssembler` understands.
public enum OSCInputFormat: String, CaseIterable, Sendable, Hashable, Codable {
    /// Prospero's own scheme (`/prospero/…`, see `NativeOSCAdapter`).
    case native
    /// Face Cap (iOS): `/W if`, `/HR fff`, `/HRQ ffff`.
    case faceCap
    /// ZIG SIM (iOS/Android): `/…/face<name>`, `/…/facerotation`, `/…/touch<i><1|2>`.
    case zigSim
    /// cansik/mediapipe-osc: `/mediapipe/hands`.
    case mediaPipeHands
    /// TouchOSC Mk1 Multi-XY: `/<page>/multixy<k>/<n> ff`, `/…/<n>/z f`.
    case touchOSC
    /// Open Stage Control `multixy` widget: 2N floats at the widget address.
    case openStageControl
    /// TUIO 1.1 cursors: `/tuio/2Dcur alive|set|fseq`.
    case tuio
}
