import Enobarbus
import InstrumentSettings
import LiveHost

/// The pages' cameras between the socket and the bridge: one stream per client, tracked with the model its
/// frames ask for (a face on Hecate's page, hands on the Hands page); one frame at a time goes to the bridge
/// (``StudioCameraBridge``), and while it is busy each client keeps only its newest frame (an older waiting
/// one is dropped and counted, never queued). Each answer becomes Prospero's native OSC through ``input``
/// (the live input path, where stabilisers, lifecycle and the face-lost fade apply as to any sender:
/// `/prospero/face/…` for a face, `/prospero/hand` and `/prospero/hand/end` for hands) and a `camera` message
/// to its client (the Selfie or skeleton view: landmarks, blendshapes and head angles or hands, the bridge's
/// state, drops and latency). Frames are held in memory only, never written anywhere.
///
/// Latency: the page stamps each frame with the server's clock as it estimates it (``StudioCameraFrame/sentAt``);
/// when the live input applies the face or hands (``applied(arrival:now:)``, called by `StudioLiveInstrument`), the
/// desk adds sent → applied, and received → applied (the server's share, exact), per client.
public final class StudioCameraDesk: @unchecked Sendable {
    /// Pages' cameras tracked at once (each is a tracker in the bridge; the studio's own camera comes on top).
    public static let maximumStreams = 4
    /// The client id of the studio's own camera (`prospero studio --camera`); no page's id looks like it.
    public static let studioClient = "studio-camera"
    /// Preview frames a second at most, to the pages that watch the studio's camera.
    public static let maximumPreviewRate = 15.0
    /// Faces waiting to be applied, at most (older ones are forgotten: the live input was not running).
    static let maximumWaiting = 64

    public let bridge: any StudioCameraBridge
    /// The datagrams of the tracked faces, for the studio's live input.
    public let input = StudioCameraInput()
    private let state = StudioLocked(State())
    private let sink = StudioLocked<(@Sendable (String, StudioServerMessage) -> Void)?>(nil)
    private let watchers = StudioLocked<StudioFanOut?>(nil)
    private let studioModel = StudioLocked<@Sendable () -> StudioCameraModel>({ .face })
    /// The studio camera's frame count and when the last preview went out (monotonic seconds).
    private let preview = StudioLocked((sequence: UInt32(0), sentAt: -Double.infinity))

    struct Stream {
        var number: UInt16
        var model: StudioCameraModel
        var pending: (frame: StudioCameraFrame, received: Double)?
        var received = 0
        var dropped = 0
        var tracked = 0
        var faces = 0
        /// Frames in which the hands model found at least one hand.
        var hands = 0
        var contoursSent = false
        var latency = StudioLatencyWindow()
        var serverLatency = StudioLatencyWindow()
        var lastDispatch = -Double.infinity
    }

    struct InFlight {
        var id: UInt32
        var client: String
        var stream: UInt16
        var model: StudioCameraModel
        var sentAt: Double?
        var received: Double
        var isEnd: Bool
    }

    struct Waiting {
        var arrival: Double
        var client: String
        var sentAt: Double?
        var received: Double
    }

    struct State {
        var streams: [String: Stream] = [:]
        var nextStream: UInt16 = 1
        var nextID: UInt32 = 1
        var inFlight: InFlight?
        /// "idle" (not started), "starting", "running", "restarting", "unavailable".
        var bridgeState = "idle"
        var message: String?
        var contours: [[Int]] = []
        var waiting: [Waiting] = []
        var started = false
    }

    /// Where the desk reports what the person running the studio should know (the bridge died, is unavailable).
    private let log: @Sendable (String) -> Void

    /// - Parameters:
    ///   - bridge: the edge's bridge process.
    ///   - log: a line for the studio's output when the bridge dies or cannot run.
    public init(bridge: any StudioCameraBridge, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bridge = bridge
        self.log = log
    }

    /// Where messages to one client go, who watches the studio's camera, and which model it tracks (the session
    /// sets them at construction).
    func attach(_ send: @escaping @Sendable (String, StudioServerMessage) -> Void, watchers: StudioFanOut,
                model: @escaping @Sendable () -> StudioCameraModel) {
        sink.withLock { $0 = send }
        self.watchers.withLock { $0 = watchers }
        studioModel.withLock { $0 = model }
    }

    /// A frame of the studio's own camera (`prospero studio --camera`), read at `now`: tracked as a page's frames
    /// are (its own stream, newest wins, with the model the active instrument plays), and sent as the preview
    /// (``StudioCameraPreview``, at most ``maximumPreviewRate`` a second) to the pages subscribed to `camera`,
    /// none when no page watches. Its latency counts from `now` (read from the camera's pipe) to applied.
    public func submitStudioFrame(jpeg: [UInt8], width: Int, height: Int, now: Double) {
        let fanOut = watchers.withLock { $0 }
        if let fanOut, fanOut.hasSubscribers(to: .camera) {
            let sequence: UInt32? = preview.withLock { p in
                guard now - p.sentAt >= 1 / Self.maximumPreviewRate else { return nil }
                p.sentAt = now
                p.sequence &+= 1
                return p.sequence
            }
            if let sequence { fanOut.send(StudioCameraPreview(sequence: sequence, width: width, height: height, jpeg: jpeg[...]).encoded(), to: .camera) }
        }
        let model = studioModel.withLock { $0 }()
        let frame = StudioCameraFrame(model: model, sequence: 0, sentAt: now * 1000, width: width, height: height, jpeg: jpeg[...])
        try? submit(frame, client: Self.studioClient, now: now)
    }

    private func send(_ message: StudioServerMessage, to client: String) {
        sink.withLock { $0 }?(client, message)
    }

    // MARK: Frames from the pages

    /// A frame from `client` at `now` (monotonic seconds). An empty frame ends the client's stream (its face or
    /// hands end). Throws `camera_busy` when ``maximumStreams`` other clients are already tracked.
    public func submit(_ frame: StudioCameraFrame, client: String, now: Double) throws(StudioError) {
        let admitted: Result<Bool, StudioError> = state.withLock { s in
            if frame.isEnd {
                guard s.streams[client] != nil else { return .success(false) }
            } else if s.streams[client] == nil {
                guard client == Self.studioClient || s.streams.keys.filter({ $0 != Self.studioClient }).count < Self.maximumStreams else {
                    return .failure(StudioError(code: "camera_busy", message: "the studio tracks at most \(Self.maximumStreams) cameras at once", ref: "camera"))
                }
                s.streams[client] = Stream(number: s.nextStream, model: frame.model)
                s.nextStream = s.nextStream == UInt16.max ? 1 : s.nextStream + 1
            }
            if s.streams[client]!.pending != nil { s.streams[client]!.dropped += 1 }
            if !frame.isEnd {
                s.streams[client]!.received += 1
                s.streams[client]!.model = frame.model
            }
            s.streams[client]!.pending = (frame, now)
            defer { s.started = true }
            return .success(!s.started)
        }
        let startBridge = try admitted.get()
        if startBridge { bridge.start(events: { [weak self] in self?.handle($0) }) }
        pump()
    }

    /// A client's socket is gone: its camera stops as if it had said so.
    public func clientLeft(_ client: String, now: Double) {
        try? submit(StudioCameraFrame(sequence: 0, sentAt: nil, width: 0, height: 0, jpeg: []), client: client, now: now)
    }

    /// Sends the next waiting frame (round robin over the clients) when none is in flight.
    private func pump() {
        while true {
            let next: (InFlight, ArraySlice<UInt8>)? = state.withLock { s in
                guard s.inFlight == nil else { return nil }
                guard let client = s.streams.filter({ $0.value.pending != nil }).min(by: { $0.value.lastDispatch < $1.value.lastDispatch })?.key,
                      let (frame, received) = s.streams[client]!.pending else { return nil }
                s.streams[client]!.pending = nil
                s.streams[client]!.lastDispatch = received
                let flight = InFlight(id: s.nextID, client: client, stream: s.streams[client]!.number, model: s.streams[client]!.model, sentAt: frame.sentAt,
                                      received: received, isEnd: frame.isEnd)
                s.nextID = s.nextID == UInt32.max ? 1 : s.nextID + 1
                s.inFlight = flight
                return (flight, frame.jpeg)
            }
            guard let (flight, jpeg) = next else { return }
            if bridge.send(id: flight.id, stream: flight.stream, model: flight.model, jpeg: jpeg) { return }
            // Not running (starting, waiting for its backoff, or unavailable): the frame is dropped; an end
            // is done at once (the bridge's trackers start afresh anyway).
            let ended: Bool = state.withLock { s in
                s.inFlight = nil
                if flight.isEnd {
                    s.streams[flight.client] = nil
                } else {
                    s.streams[flight.client]?.dropped += 1
                }
                return flight.isEnd
            }
            if ended { input.push(Self.datagram(Self.endPacket(flight.model), stream: flight.stream, at: MonotonicClock.now())) }
        }
    }

    // MARK: The bridge's answers

    private func handle(_ event: StudioCameraBridgeEvent) {
        switch event {
        case .starting:
            setBridgeState("starting", message: nil)
        case .unavailable(let message):
            log("page cameras unavailable: \(message)")
            setBridgeState("unavailable", message: message)
            state.withLock { $0.started = false }  // tried again on the next frame (the environment may be made meanwhile)
        case .exited(let reason, let restartIn):
            state.withLock { s in
                if let flight = s.inFlight, flight.isEnd { s.streams[flight.client] = nil }
                s.inFlight = nil
            }
            let message = "the camera bridge stopped (\(reason)); restarting in \(Self.seconds(restartIn))"
            log(message)
            setBridgeState("restarting", message: message)
        case .line(let bytes):
            let line: StudioCameraBridgeLine
            do throws(StudioError) { line = try StudioCameraBridgeLine.parse(bytes) } catch {
                setBridgeState(state.withLock { $0.bridgeState }, message: error.message)
                return
            }
            switch line {
            case .ready(let contours):
                state.withLock { s in
                    s.contours = contours
                    for k in s.streams.keys { s.streams[k]!.contoursSent = false }
                }
                setBridgeState("running", message: nil)
            case .frame(let result):
                answered(result)
            }
        }
        pump()
    }

    private func answered(_ result: StudioCameraResult) {
        let now = MonotonicClock.now()
        let outcome: (String, StudioServerMessage?, OSCPacket?, UInt16)? = state.withLock { s in
            guard let flight = s.inFlight, flight.id == result.id else { return nil }
            s.inFlight = nil
            var elements: [OSCPacket] = []
            if let face = result.face {
                elements += [.message(Self.blendMessage(face)),
                             .message(OSCMessage("/prospero/face/head", [.float32(Float(face.yaw)), .float32(Float(face.pitch)), .float32(Float(face.roll))]))]
            } else if result.ended {
                elements.append(.message(OSCMessage("/prospero/face/end")))
            }
            elements += result.hands.map { .message(Self.handMessage($0)) }
            elements += result.endedHands.map { .message(OSCMessage("/prospero/hand/end", [.int32(Int32($0))])) }
            // One bundle per frame: its face, or all its hands, apply as one frame.
            let packet: OSCPacket? = elements.isEmpty ? nil : elements.count == 1 && result.hands.isEmpty ? elements[0] : .bundle(OSCBundle(elements))
            if result.face != nil || !result.hands.isEmpty {
                s.waiting.append(Waiting(arrival: now, client: flight.client, sentAt: flight.sentAt, received: flight.received))
                if s.waiting.count > Self.maximumWaiting { s.waiting.removeFirst(s.waiting.count - Self.maximumWaiting) }
            }
            if flight.isEnd {
                s.streams[flight.client] = nil
                return (flight.client, nil, packet, flight.stream)
            }
            guard var stream = s.streams[flight.client] else { return (flight.client, nil, packet, flight.stream) }
            stream.tracked += 1
            if result.face != nil { stream.faces += 1 }
            if !result.hands.isEmpty { stream.hands += 1 }
            var o = Self.statusJSON(s)
            o["seq"] = .number(Double(result.id))
            if let ms = result.trackingMilliseconds { o["ms"] = .number((ms * 10).rounded() / 10) }
            if let error = result.error { o["error"] = .string(error) }
            o["model"] = .string(flight.model == .hands ? "hands" : "face")
            if flight.client == Self.studioClient { o["source"] = .string("studio") }
            o["face"] = .bool(result.face != nil)
            if flight.model == .hands {
                o["hands"] = .array(result.hands.map { h in
                    ["slot": .number(Double(h.slot)), "side": .string(h.side), "conf": .number((h.confidence * 10_000).rounded() / 10_000),
                     "lm": .array(h.landmarks.map { .number((Double($0) * 100_000).rounded() / 100_000) })]
                })
            }
            if let face = result.face {
                o["blend"] = .object(face.blend.mapValues { .number(($0 * 10_000).rounded() / 10_000) })
                o["head"] = ["yaw": .number(face.yaw), "pitch": .number(face.pitch), "roll": .number(face.roll)]
            }
            if let points = result.points { o["points"] = .array(points.map { .number((Double($0) * 10_000).rounded() / 10_000) }) }
            if flight.model == .face, !stream.contoursSent, !s.contours.isEmpty {
                o["contours"] = .array(s.contours.map { .array($0.map { .number(Double($0)) }) })
                stream.contoursSent = true
            }
            o["stats"] = Self.statsJSON(stream)
            s.streams[flight.client] = stream
            return (flight.client, .camera(o), packet, flight.stream)
        }
        guard let (client, message, packet, stream) = outcome else { return }
        if let packet { input.push(Self.datagram(packet, stream: stream, at: now)) }
        if let message { send(message, to: client) }
    }

    /// The live input applied the frames that arrived at `arrival`; a tracked face or hands among them add their latencies.
    public func applied(arrival: Double, now: Double) {
        state.withLock { s in
            guard let i = s.waiting.firstIndex(where: { $0.arrival == arrival }) else { return }
            let w = s.waiting.remove(at: i)
            s.streams[w.client]?.serverLatency.add((now - w.received) * 1000)
            if let sent = w.sentAt { s.streams[w.client]?.latency.add(now * 1000 - sent) }
        }
    }

    /// One client's counts and latencies: `{"received","tracked","faces","hands","dropped","latency","serverLatency"}`.
    public func stats(of client: String) -> StudioValue? {
        state.withLock { s in s.streams[client].map(Self.statsJSON) }
    }

    public func stop() { bridge.stop() }

    // MARK: Helpers

    private func setBridgeState(_ bridgeState: String, message: String?) {
        let (clients, json): ([String], [String: StudioValue]) = state.withLock { s in
            s.bridgeState = bridgeState
            s.message = message
            return (Array(s.streams.keys), Self.statusJSON(s))
        }
        for client in clients { send(.camera(json), to: client) }
    }

    private static func statusJSON(_ s: State) -> [String: StudioValue] {
        ["state": .string(s.bridgeState), "message": s.message.map { .string($0) } ?? .null]
    }

    private static func statsJSON(_ stream: Stream) -> StudioValue {
        ["received": .number(Double(stream.received)), "tracked": .number(Double(stream.tracked)),
         "faces": .number(Double(stream.faces)), "hands": .number(Double(stream.hands)), "dropped": .number(Double(stream.dropped)),
         "latency": stream.latency.json, "serverLatency": stream.serverLatency.json]
    }

    private static func blendMessage(_ face: StudioCameraFace) -> OSCMessage {
        var arguments: [OSCArgument] = []
        for (name, weight) in face.blend.sorted(by: { $0.key < $1.key }) {
            arguments.append(.string(name))
            arguments.append(.float32(Float(weight)))
        }
        return OSCMessage("/prospero/face/blend", arguments)
    }

    /// `/prospero/hand`: slot, side, confidence, then the 63 coordinates, as the bridge sends a webcam's hands,
    /// but mirrored (x = 1 − the image's x): a page's camera faces the player, and the pad shows its hands as a
    /// mirror does, so a hand moved to the player's right moves right on the pad (the side stays the player's own).
    private static func handMessage(_ hand: StudioCameraHand) -> OSCMessage {
        var arguments: [OSCArgument] = [.int32(Int32(hand.slot)), .string(hand.side), .float32(Float(hand.confidence))]
        for (i, v) in hand.landmarks.enumerated() { arguments.append(.float32(i % 3 == 0 ? 1 - v : v)) }
        return OSCMessage("/prospero/hand", arguments)
    }

    /// What ends a stream's tracking at once when the bridge cannot: its face, or every hand slot.
    private static func endPacket(_ model: StudioCameraModel) -> OSCPacket {
        switch model {
        case .face: .message(OSCMessage("/prospero/face/end"))
        case .hands: .bundle(OSCBundle((0..<StudioCameraBridgeLine.maximumHands).map { .message(OSCMessage("/prospero/hand/end", [.int32(Int32($0))])) }))
        }
    }

    private static func datagram(_ packet: OSCPacket, stream: UInt16, at time: Double) -> Datagram {
        Datagram(bytes: (try? OSCEncoder.encode(packet)) ?? [], sender: .inProcess("camera", number: Int(stream)), arrival: time)
    }

    private static func datagram(_ message: OSCMessage, stream: UInt16, at time: Double) -> Datagram {
        datagram(.message(message), stream: stream, at: time)
    }

    private static func seconds(_ s: Double) -> String { s < 10 ? "\((s * 10).rounded() / 10) s" : "\(Int(s.rounded())) s" }
}
