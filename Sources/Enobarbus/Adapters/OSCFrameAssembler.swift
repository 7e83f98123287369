/// Turns OSC packets from any supported sender into normalised `TrackingFrame`s, one per sender frame.
///
/// Senders differ in how they cut a frame into packets: Face Cap sends each of its 52 `/W`
/// blendshapes and its head messages in a datagram of its own, ZIG SIM and TouchOSC send a few
/// packets per frame, TUIO and Prospero's native senders one bundle. The assembler keeps one open
/// frame per sender (per `OSCInputFormat`) and closes it, emitting each source it changed once:
///
/// 1. at the end of a bundle (a bundle's messages apply atomically, as OSC requires);
/// 2. when a key already in the open frame repeats (a key is the address plus up to two leading
///    integer or string arguments that name a part: Face Cap's `/W` index, a native blendshape name or
///    slot), so the next frame's first message closes the previous frame (not inside a bundle);
/// 3. on the sender's known frame-ending message, from its first frame on (TUIO `fseq`,
///    `/mediapipe/hands`, an Open Stage Control widget message: each carries or ends a whole frame;
///    Face Cap's `/W 51`: a Face Cap frame is its head messages, then the 52 `/W` in index order, so the
///    last index is the frame's last message), or on its learned one: when three frames in a row of
///    loose packets ended on the same key, that key closes the sender's frames at once, until three
///    frames in a row end elsewhere;
/// 4. after `quietInterval` (about 5 ms) without a message from that sender, when the caller's
///    loop calls `flush(now:)` with the current time (there are no timers inside Enobarbus). For a
///    sender whose frames end on a message it marks (`hasKnownFrameEnd`: Face Cap) or whose frame end
///    was learned the wait is `learnedQuietInterval` (50 ms): its frames close on their end, and a
///    sender paused by its scheduler in the middle of a burst is not split. Senders whose format marks
///    no end (TouchOSC, ZIG SIM sending loose packets, native loose messages) keep the 5 ms quiet close.
///
/// Adapters are tried in a fixed order (native, Face Cap, MediaPipe, TUIO, TouchOSC, Open Stage
/// Control, ZIG SIM); the first that recognises an address handles it. Messages that no enabled
/// adapter recognises are counted as ignored; recognised ones with wrong arguments are counted as
/// rejected, with the last reason kept.
///
///     var assembler = OSCFrameAssembler()
///     send(assembler.ingest(packet, at: arrival))      // frames the packet closed
///     send(assembler.flush(now: now))                  // frames quiet for 5 ms, from the receive loop
///     send(assembler.flush(now: .infinity))            // at the end of input: every open frame
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
    /// Seconds without a message after which `flush(now:)` closes a sender's frame (0.005 by default:
    /// longer than the gaps inside one burst of packets, shorter than a 60 fps frame interval).
    public var quietInterval: Double = 0.005
    /// The quiet close for a sender whose frame-ending key was learned (rule 3), seconds.
    public var learnedQuietInterval: Double = 0.05

    public private(set) var state = FrameAssembly()
    public private(set) var acceptedMessages = 0
    public private(set) var ignoredMessages = 0
    public private(set) var rejectedMessages = 0
    public private(set) var lastRejection: String?
    /// Messages accepted per sender format.
    public private(set) var acceptedByFormat: [OSCInputFormat: Int] = [:]
    /// Sender frames closed so far, per sender format.
    public private(set) var framesByFormat: [OSCInputFormat: Int] = [:]

    /// The open frame of each sender: the keys it holds and when its latest message arrived.
    private var open: [OSCInputFormat: OpenSenderFrame] = [:]
    /// How each sender's recent frames ended, and the frame-ending key learned from them.
    private var endings: [OSCInputFormat: FrameEndings] = [:]

    /// The key that closes `format`'s frames at once, once learned (rule 3).
    public func learnedFrameEnd(of format: OSCInputFormat) -> String? {
        endings[format]?.learned.map { key in
            ([key.address] + key.parts.map { part in
                switch part {
                case .int64(let v): "\(v)"
                case .string(let s): s
                default: "\(part)"
                }
            }).joined(separator: " ")
        }
    }

    public init(enabledFormats: Set<OSCInputFormat> = Set(OSCInputFormat.allCases)) {
        self.enabledFormats = enabledFormats
    }

    /// Whether some sender's frame is waiting to be closed (by more input or by `flush(now:)`).
    public var hasOpenFrames: Bool { !open.isEmpty }

    /// Applies one packet received at `time` (seconds, monotonic) and returns the frames it closed:
    /// first those quiet since before it arrived, then those its messages closed.
    public mutating func ingest(_ packet: OSCPacket, at time: Double) -> [TrackingFrame] {
        var out = flush(now: time)
        var bundleFormats: [OSCInputFormat] = []
        let inBundle: Bool
        if case .bundle = packet { inBundle = true } else { inBundle = false }
        // Inside a bundle keys may repeat (it is atomic); only a key of a frame opened before it closes that frame.
        var keysBefore = inBundle ? open.mapValues(\.keys) : [:]
        packet.forEachMessage { message in
            let key = FrameKey(message)
            if inBundle {
                if let format = keysBefore.first(where: { $0.value.contains(key) })?.key {
                    keysBefore[format] = nil
                    out += close(format)
                }
            } else if let format = open.first(where: { $0.value.keys.contains(key) })?.key {
                out += close(format)  // rule 2
            }
            guard let format = handle(message) else { return }
            if inBundle && !bundleFormats.contains(format) { bundleFormats.append(format) }
            state.time = time
            open[format, default: OpenSenderFrame()].keys.insert(key)
            open[format]?.lastTime = time
            open[format]?.lastKey = inBundle ? nil : key
            if !inBundle && (Self.endsFrame(message, format) || endings[format]?.learned == key) {
                out += close(format)  // rule 3
            }
        }
        for format in bundleFormats where open[format] != nil { out += close(format) }  // rule 1
        state.time = time
        return out
    }

    /// Closes every sender frame whose latest message is at least `quietInterval` older than `now`
    /// (seconds on the clock of `ingest`'s times); `flush(now: .infinity)` closes them all.
    public mutating func flush(now: Double) -> [TrackingFrame] {
        guard !open.isEmpty else { return [] }
        var out: [TrackingFrame] = []
        let quiet = open.filter { format, frame in
            let wait = endings[format]?.learned == nil && !Self.hasKnownFrameEnd(format) ? quietInterval : learnedQuietInterval
            return now - frame.lastTime >= wait - 1e-9  // a nanosecond of slack: 0.105 − 0.1 is 0.00499… in binary
        }
        // Oldest first, so frames come out in the order they were sent.
        for (format, _) in quiet.sorted(by: { ($0.value.lastTime, $0.key.rawValue) < ($1.value.lastTime, $1.key.rawValue) }) {
            out += close(format)
        }
        return out
    }

    /// The messages that carry or end a whole frame of their sender.
    static func endsFrame(_ message: OSCMessage, _ format: OSCInputFormat) -> Bool {
        switch format {
        case .mediaPipeHands: return true
        case .tuio: return message.arguments.first?.stringValue == "fseq"
        case .openStageControl: return !message.address.hasSuffix("/touch")
        case .faceCap: return message.address == "/W" && message.arguments.first?.intValue == Self.faceCapLastIndex
        case .native, .zigSim, .touchOSC: return false
        }
    }

    /// Face Cap's last `/W` index: its frame's last message.
    static let faceCapLastIndex = ARKitBlendshape.faceCapOrderNames.count - 1

    /// Senders sending loose packets whose format marks each frame's last message (`endsFrame`), so
    /// their frames never wait for the quiet close unless that message is lost.
    static func hasKnownFrameEnd(_ format: OSCInputFormat) -> Bool { format == .faceCap }

    /// Emits the sources `format` changed since its frame opened, stamped with its latest arrival time.
    private mutating func close(_ format: OSCInputFormat) -> [TrackingFrame] {
        guard let frame = open.removeValue(forKey: format) else { return [] }
        endings[format, default: FrameEndings()].note(frame.keys.count > 1 ? frame.lastKey : nil)
        let now = state.time
        state.time = frame.lastTime
        state.owner = format
        if format == .zigSim && enabledFormats.contains(.zigSim) { zigSim.packetEnded(into: &state) }
        var frames = state.flush(owner: format)
        state.time = now
        framesByFormat[format, default: 0] += 1
        if swapHandedness {
            for k in frames.indices {
                if case .hand(var h) = frames[k] { h.handedness = h.handedness.swapped; frames[k] = .hand(h) }
            }
        }
        return frames
    }

    /// Exact addresses first, patterns next, ZIG SIM's suffix match last (it is the loosest).
    static let dispatchOrder: [OSCInputFormat] = [.native, .faceCap, .mediaPipeHands, .tuio, .touchOSC, .openStageControl, .zigSim]

    /// The format whose adapter accepted `message`, or nil when it was rejected or ignored.
    private mutating func handle(_ message: OSCMessage) -> OSCInputFormat? {
        for format in Self.dispatchOrder where enabledFormats.contains(format) {
            state.owner = format
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
                return format
            case .rejected(let reason):
                rejectedMessages += 1
                lastRejection = "\(message.address): \(reason)"
                return nil
            }
        }
        ignoredMessages += 1
        return nil
    }
}

/// One sender's frame while it is open.
struct OpenSenderFrame: Sendable {
    var keys: Set<FrameKey> = []
    var lastTime = 0.0
    /// The key of its latest loose message (nil after a bundle).
    var lastKey: FrameKey?
}

/// The keys a sender's recent frames ended on, and the frame-ending key learned from three in a row.
struct FrameEndings: Sendable {
    private(set) var learned: FrameKey?
    private var candidate: FrameKey?
    private var run = 0
    private var misses = 0

    /// Notes the key a closed frame ended on (nil for a bundle or a one-message frame).
    mutating func note(_ last: FrameKey?) {
        if let last, last == learned {
            misses = 0
            return
        }
        if learned != nil {
            misses += 1
            if misses >= 3 { learned = nil; misses = 0 }
        }
        if let last, last == candidate {
            run += 1
        } else {
            candidate = last
            run = last == nil ? 0 : 1
        }
        if run >= 3 && learned == nil {
            learned = candidate
            misses = 0
        }
    }
}

/// What a message sets within a sender's frame: its address and up to two leading integer or string
/// arguments, which name a part (Face Cap's `/W` index, a native blendshape name or slot, TUIO's `set`
/// and session id), so that the same key twice means the sender has begun its next frame.
struct FrameKey: Hashable, Sendable {
    var address: String
    var parts: [OSCArgument] = []

    init(_ message: OSCMessage) {
        address = message.address
        for argument in message.arguments.prefix(2) {
            switch argument {
            case .int32(let v): parts.append(.int64(Int64(v)))
            case .int64(let v): parts.append(.int64(v))
            case .string(let s), .symbol(let s): parts.append(.string(s))
            default: return
            }
        }
    }
}
