/// Turns OSC packets from any supported sender into normalised `TrackingFrame`s.
///
/// Each packet (one datagram, with all its bundles) is one frame boundary: its messages
/// update the sources' state, then one frame per changed source comes out, in
/// `InputSourceID.all` order. Adapters are tried in a fixed order (native, Face Cap,
/// MediaPipe, TUIO, TouchOSC, Open Stage Control, ZIG SIM); the first that recognises an
/// address handles it. Messages that no enabled adapter recognises are counted as ignored;
/// recognised ones with wrong arguments are counted as rejected, with the last reason kept.
///
///     var assembler = OSCFrameAssembler()
///     let frames = assembler.ingest(packet, at: now)
public struct OSCFrameAssembler: Sendable {
    public var enabledFormats: Set<OSCInputFormat>
    public var native = NativeOSCAdapter()
    public var faceCap = FaceCapAdapter()
    public var mediaPipe = MediaPipeHandsAdapter()
    public var tuio = TUIOCursorAdapter()
    public var touchOSC = TouchOSCAdapter()
    public var openStageControl = OpenStageControlAdapter()
    public var zigSim = ZIGSIMAdapter()
    /// Swap left and right handedness (for mirrored cameras).
    public var swapHandedness = false

    public private(set) var state = FrameAssembly()
    public private(set) var acceptedMessages = 0
    public private(set) var ignoredMessages = 0
    public private(set) var rejectedMessages = 0
    public private(set) var lastRejection: String?
    /// Messages accepted per sender format.
    public private(set) var acceptedByFormat: [OSCInputFormat: Int] = [:]

    public init(enabledFormats: Set<OSCInputFormat> = Set(OSCInputFormat.allCases)) {
        self.enabledFormats = enabledFormats
    }

    /// Applies one packet received at `time` (seconds, monotonic) and returns the frames it produced.
    public mutating func ingest(_ packet: OSCPacket, at time: Double) -> [TrackingFrame] {
        state.time = time
        packet.forEachMessage { handle($0) }
        if enabledFormats.contains(.zigSim) { zigSim.packetEnded(into: &state) }
        var frames = state.flush()
        if swapHandedness {
            for k in frames.indices {
                if case .hand(var h) = frames[k] { h.handedness = h.handedness.swapped; frames[k] = .hand(h) }
            }
        }
        return frames
    }

    /// Exact addresses first, patterns next, ZIG SIM's suffix match last (it is the loosest).
    static let dispatchOrder: [OSCInputFormat] = [.native, .faceCap, .mediaPipeHands, .tuio, .touchOSC, .openStageControl, .zigSim]

    private mutating func handle(_ message: OSCMessage) {
        for format in Self.dispatchOrder where enabledFormats.contains(format) {
            let result: OSCAdapterResult?
            switch format {
            case .native: result = native.handle(message, into: &state)
            case .faceCap: result = faceCap.handle(message, into: &state)
            case .mediaPipeHands: result = mediaPipe.handle(message, into: &state)
            case .tuio: result = tuio.handle(message, into: &state)
            case .touchOSC: result = touchOSC.handle(message, into: &state)
            case .openStageControl: result = openStageControl.handle(message, into: &state)
            case .zigSim: result = zigSim.handle(message, into: &state)
            }
            guard let result else { continue }
            switch result {
            case .accepted:
                acceptedMessages += 1
                acceptedByFormat[format, default: 0] += 1
            case .rejected(let reason):
                rejectedMessages += 1
                lastRejection = "\(message.address): \(reason)"
            }
            return
        }
        ignoredMessages += 1
    }
}
