import Enobarbus
import InstrumentSettings
import LiveHost
import Studio
import Synchronization
import Testing

/// The page camera's portable parts: the binary frame a page sends, the bridge's output lines, and the camera
/// desk between them (one stream per client, newest wins, drops counted, faces into the live input as native
/// OSC, latency when applied), with a scripted bridge that answers when the test says.
@Suite("Studio page camera")
struct StudioCameraTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0xFF, 0xD9]

    static func frame(_ sequence: UInt32, sentAt: Double? = nil, jpeg: [UInt8] = jpeg) -> StudioCameraFrame {
        StudioCameraFrame(sequence: sequence, sentAt: sentAt, width: 320, height: 240, jpeg: jpeg[...])
    }

    // MARK: The frame

    @Test("a frame reads back from its bytes; wrong kinds, short headers, large frames and non-JPEGs are refused by name")
    func frameCodec() throws {
        let f = Self.frame(7, sentAt: 81_234.5)
        #expect(try StudioCameraFrame.parse(f.encoded()) == f)
        let end = StudioCameraFrame(sequence: 8, sentAt: nil, width: 0, height: 0, jpeg: [])
        #expect(try StudioCameraFrame.parse(end.encoded()).isEnd)
        func refusal(_ bytes: [UInt8]) -> StudioError? {
            do { _ = try StudioCameraFrame.parse(bytes); return nil } catch { return error }
        }
        #expect(refusal([]).map { $0.code == "bad_message" } == true)
        #expect(refusal([0x01, 0, 0, 0, 0]).map { $0.message.contains("0x1") && $0.ref == "camera" } == true)
        #expect(refusal(Array(f.encoded().prefix(10))).map { $0.message.contains("17-byte header") } == true)
        let big = Self.frame(1, jpeg: [0xFF, 0xD8] + [UInt8](repeating: 0, count: StudioCameraFrame.maximumJPEGBytes))
        #expect(refusal(big.encoded()).map { $0.code == "too_large" && $0.message.contains("\(StudioCameraFrame.maximumJPEGBytes)") } == true)
        #expect(refusal(Self.frame(1, jpeg: [0x89, 0x50, 0x4E, 0x47]).encoded()).map { $0.message.contains("JPEG") } == true)
        var wide = Self.frame(1)
        wide.width = 640
        #expect(refusal(wide.encoded()).map { $0.message.contains("640×240") } == true)
    }

    // MARK: The bridge's lines

    @Test("the bridge's lines: ready with contours, a face, settling points, an end, an error; bad lines named")
    func bridgeLines() throws {
        #expect(try StudioCameraBridgeLine.parse(Array(#"{"ready":true,"contours":[[0,267],[7,163]]}"#.utf8)) == .ready(contours: [[0, 267], [7, 163]]))
        let face = try StudioCameraBridgeLine.parse(Array(#"{"id":12,"stream":1,"ms":6.3,"face":{"blend":{"jawOpen":0.34,"mouthSmileLeft":1.2},"head":[-0.5,0.8,-2.6]},"points":[0.5,0.4]}"#.utf8))
        guard case .frame(let r) = face else { Issue.record("not a frame"); return }
        #expect(r.id == 12 && r.stream == 1 && r.trackingMilliseconds == 6.3 && r.points == [0.5, 0.4])
        #expect(r.face == StudioCameraFace(blend: ["jawOpen": 0.34, "mouthSmileLeft": 1], yaw: -0.5, pitch: 0.8, roll: -2.6))
        guard case .frame(let ended) = try StudioCameraBridgeLine.parse(Array(#"{"id":3,"stream":1,"ms":5,"ended":"face"}"#.utf8)) else { return }
        #expect(ended.ended && ended.face == nil)
        guard case .frame(let error) = try StudioCameraBridgeLine.parse(Array(#"{"id":4,"stream":1,"error":"not a JPEG"}"#.utf8)) else { return }
        #expect(error.error == "not a JPEG")
        for (line, says) in [("[1]", "not a JSON object"), (#"{"id":-1,"stream":1}"#, "`id`"),
                             (#"{"id":1,"stream":1,"face":{"blend":{"chinUp":1},"head":[0,0,0]}}"#, "chinUp"),
                             (#"{"id":1,"stream":1,"face":{"blend":{},"head":[0,400,0]}}"#, "head angle"),
                             (#"{"id":1,"stream":1,"points":[0.5]}"#, "pairs"), ("{", "camera bridge"),
                             (#"{"id":1,"stream":1,"hands":[{"slot":4,"side":"left","conf":1,"lm":[]}]}"#, "slot"),
                             (#"{"id":1,"stream":1,"hands":[{"slot":0,"side":"up","conf":1,"lm":[]}]}"#, "side"),
                             (#"{"id":1,"stream":1,"hands":[{"slot":0,"side":"left","conf":2,"lm":[]}]}"#, "conf"),
                             (#"{"id":1,"stream":1,"hands":[{"slot":0,"side":"left","conf":1,"lm":[0.5,0.5]}]}"#, "21 landmarks"),
                             (#"{"id":1,"stream":1,"handsEnded":[7]}"#, "hand slot")] {
            do {
                _ = try StudioCameraBridgeLine.parse(Array(line.utf8))
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.code == "bad_bridge_line" && error.message.contains(says), "\(line): \(error)")
            }
        }
    }

    // MARK: The desk

    /// A bridge the test answers: it records each frame it takes and says busy/idle as told.
    final class ScriptedBridge: StudioCameraBridge, @unchecked Sendable {
        let taken = Mutex<[(id: UInt32, stream: UInt16, bytes: Int)]>([])
        let models = Mutex<[StudioCameraModel]>([])
        let events = Mutex<(@Sendable (StudioCameraBridgeEvent) -> Void)?>(nil)
        let running = Mutex(true)
        func start(events: @escaping @Sendable (StudioCameraBridgeEvent) -> Void) { self.events.withLock { $0 = events } }
        func send(id: UInt32, stream: UInt16, model: StudioCameraModel, jpeg: ArraySlice<UInt8>) -> Bool {
            guard running.withLock({ $0 }) else { return false }
            taken.withLock { $0.append((id, stream, jpeg.count)) }
            models.withLock { $0.append(model) }
            return true
        }
        func stop() {}
        func say(_ line: String) { events.withLock { $0 }?(.line(Array(line.utf8))) }
        func report(_ event: StudioCameraBridgeEvent) { events.withLock { $0 }?(event) }
    }

    final class Collected: @unchecked Sendable {
        let datagrams = Mutex<[Datagram]>([])
        var packets: [OSCPacket] { datagrams.withLock { $0 }.compactMap { try? OSCDecoder.decode($0.bytes) } }
    }

    @Test("the studio's own camera tracks what the active instrument is played by: hands on the Hands pad, else a face")
    func studioCameraFollowsTheActiveInstrument() throws {
        for (active, expected) in [(0, StudioCameraModel.face), (1, .hands)] {
            let bridge = ScriptedBridge()
            let desk = StudioCameraDesk(bridge: bridge)
            _ = StudioSession(instruments: [StudioToneInstrument(), try HandsStudioInstrument()], active: active, camera: desk)
            desk.submitStudioFrame(jpeg: Array(Self.jpeg), width: 320, height: 240, now: 1)
            #expect(bridge.models.withLock { $0 } == [expected], "active \(active)")
        }
    }

    @Test("one frame in flight; a client's waiting frame is replaced by its newest (counted); the answer is native OSC into the live input and a camera message to its client")
    func newestWinsAndFacesEnterTheInput() throws {
        let bridge = ScriptedBridge()
        let desk = StudioCameraDesk(bridge: bridge)
        let session = StudioSession(instruments: [StudioToneInstrument()], camera: desk)
        let collected = Collected()
        try desk.input.start { d in collected.datagrams.withLock { $0.append(d) } }
        let out = StudioSessionTests.Outbox()
        let (c, id, _) = StudioSessionTests().join(session, out)
        for k: UInt32 in 1...4 { session.receiveBinary(Self.frame(k, sentAt: 1000).encoded(), from: c, now: 1) }
        // The first went to the bridge; 2 and 3 were replaced while it worked, 4 waits.
        #expect(bridge.taken.withLock { $0.map(\.id) } == [1])
        bridge.say(#"{"ready":true,"contours":[[0,1]]}"#)
        bridge.say(#"{"id":1,"stream":1,"ms":6,"face":{"blend":{"jawOpen":0.5},"head":[10,-5,2]},"points":[0.5,0.4]}"#)
        #expect(bridge.taken.withLock { $0.map(\.id) } == [1, 2], "the newest waiting frame goes next")
        let messages = out.take().filter { $0["type"] == "camera" }
        let answer = try #require(messages.last)
        #expect(answer["face"] == true && answer["blend"]?.object?["jawOpen"] == 0.5 && answer["head"]?.object?["yaw"] == 10)
        #expect(answer["contours"] == [[0, 1]] && answer["points"] == [0.5, 0.4] && answer["state"] == "running")
        #expect(answer["stats"]?.object?["dropped"] == 2 && answer["stats"]?.object?["received"] == 4)
        // Native OSC from an in-process sender: the same frames any sender's OSC makes.
        let datagram = try #require(collected.datagrams.withLock { $0.first })
        #expect(datagram.sender.isInProcess && datagram.sender.description == "camera 1")
        var assembler = OSCFrameAssembler()
        let frames = assembler.ingest(try OSCDecoder.decode(datagram.bytes), at: datagram.arrival)
        guard case .face(let face)? = frames.first else { Issue.record("no face frame: \(frames)"); return }
        #expect(face.blendshapes[.jawOpen] == 0.5 && face.head.yaw == 10 && face.head.pitch == -5)
        // Applied by the live input 20 ms after it arrived: the latencies count from there.
        desk.applied(arrival: datagram.arrival, now: datagram.arrival + 0.02)
        let stats = try #require(desk.stats(of: id)?.object)
        #expect(stats["serverLatency"]?.object?["count"] == 1)
        // The page stopped: the frame in flight is answered, then the end goes and its face ends.
        session.receiveBinary(StudioCameraFrame(sequence: 9, sentAt: nil, width: 0, height: 0, jpeg: []).encoded(), from: c, now: 2)
        bridge.say(#"{"id":2,"stream":1,"ms":6,"face":{"blend":{"jawOpen":0.5},"head":[10,-5,2]}}"#)
        #expect(bridge.taken.withLock { $0.last.map { ($0.id, $0.bytes) } ?? (0, -1) } == (3, 0))
        bridge.say(#"{"id":3,"stream":1,"ended":"face"}"#)
        #expect(collected.packets.last == .message(OSCMessage("/prospero/face/end")))
        #expect(desk.stats(of: id) == nil, "the stream is gone")
    }

    @Test("a hands frame (kind 0x21) is tracked with the hands model; its hands enter the live input as /prospero/hand and end with /prospero/hand/end; the client gets their landmarks")
    func handsEnterTheInput() throws {
        let bridge = ScriptedBridge()
        let desk = StudioCameraDesk(bridge: bridge)
        let session = StudioSession(instruments: [StudioToneInstrument()], camera: desk)
        let collected = Collected()
        try desk.input.start { d in collected.datagrams.withLock { $0.append(d) } }
        let out = StudioSessionTests.Outbox()
        let (c, id, _) = StudioSessionTests().join(session, out)
        let frame = StudioCameraFrame(model: .hands, sequence: 1, sentAt: 1000, width: 320, height: 240, jpeg: Self.jpeg[...])
        #expect(frame.encoded().first == 0x21 && (try? StudioCameraFrame.parse(frame.encoded())) == frame)
        session.receiveBinary(frame.encoded(), from: c, now: 1)
        #expect(bridge.models.withLock { $0 } == [.hands])
        // Landmarks as the bridge prints them: 21 points, x = 0.3 + k/100, y = 0.8 - k/50, z = -k/1000.
        var lm: [Double] = []
        for k in 0..<21 {
            let d = Double(k)
            lm += [0.3 + d / 100, 0.8 - d / 50, -d / 1000]
        }
        let numbers = lm.map { String($0) }.joined(separator: ",")
        bridge.say(#"{"id":1,"stream":1,"ms":40,"hands":[{"slot":0,"side":"right","conf":0.82,"lm":[\#(numbers)]}]}"#)
        let answer = try #require(out.take().last { $0["type"] == "camera" })
        #expect(answer["model"] == "hands" && answer["face"] == false)
        let hand = try #require(answer["hands"]?.array?.first?.object)
        #expect(hand["side"] == "right" && hand["slot"] == 0 && hand["lm"]?.array?.count == 63)
        #expect(answer["stats"]?.object?["hands"] == 1)
        let datagram = try #require(collected.datagrams.withLock { $0.first })
        var assembler = OSCFrameAssembler()
        let frames = assembler.ingest(try OSCDecoder.decode(datagram.bytes), at: datagram.arrival)
        guard case .hand(let tracked)? = frames.first else { Issue.record("no hand frame: \(frames)"); return }
        #expect(tracked.slot == 0 && tracked.handedness == .right)
        // Mirrored as the pad shows a page camera's hands: x = 1 − the image's x.
        #expect(abs(Double(tracked[.indexTip].x) - (1 - lm[24])) < 1e-6 && abs(Double(tracked[.indexTip].y) - lm[25]) < 1e-6)
        desk.applied(arrival: datagram.arrival, now: datagram.arrival + 0.01)
        #expect(desk.stats(of: id)?.object?["latency"]?.object?["count"] == 1)
        // The hand is lost: /prospero/hand/end for its slot.
        session.receiveBinary(StudioCameraFrame(model: .hands, sequence: 2, sentAt: nil, width: 320, height: 240, jpeg: Self.jpeg[...]).encoded(), from: c, now: 2)
        bridge.say(#"{"id":2,"stream":1,"ms":40,"handsEnded":[0]}"#)
        #expect(collected.packets.last == .message(OSCMessage("/prospero/hand/end", [.int32(0)])))
        // With the bridge down, the page's stop ends every hand slot at once.
        bridge.running.withLock { $0 = false }
        session.receiveBinary(StudioCameraFrame(model: .hands, sequence: 3, sentAt: nil, width: 0, height: 0, jpeg: []).encoded(), from: c, now: 3)
        guard case .bundle(let ends)? = collected.packets.last else { Issue.record("no end bundle"); return }
        #expect(ends.elements.count == 4 && ends.elements.first == .message(OSCMessage("/prospero/hand/end", [.int32(0)])))
        #expect(desk.stats(of: id) == nil)
    }

    @Test("at most four cameras; a bridge that is not running drops frames and reports its state to the camera's client")
    func limitsAndBridgeStates() throws {
        let bridge = ScriptedBridge()
        let desk = StudioCameraDesk(bridge: bridge)
        let session = StudioSession(instruments: [StudioToneInstrument()], camera: desk)
        var outs: [StudioSessionTests.Outbox] = []
        var connections: [Int] = []
        for _ in 0..<5 {
            let out = StudioSessionTests.Outbox()
            connections.append(StudioSessionTests().join(session, out).0)
            outs.append(out)
        }
        for c in connections { session.receiveBinary(Self.frame(1).encoded(), from: c, now: 1) }
        #expect(outs[4].take().contains { $0["type"] == "error" && $0["code"] == "camera_busy" })
        bridge.report(.unavailable("no camera environment found. Make it once with scripts/camera-setup"))
        let told = outs[0].take().last { $0["type"] == "camera" }
        #expect(told?["state"] == "unavailable" && told?["message"]?.string?.contains("scripts/camera-setup") == true)
        bridge.report(.exited(reason: "exit status 1", restartIn: 2))
        #expect(outs[1].take().last?["message"]?.string == "the camera bridge stopped (exit status 1); restarting in 2.0 s")
        // A studio without a bridge says so.
        let plain = StudioSession(instruments: [StudioToneInstrument()])
        let out = StudioSessionTests.Outbox()
        let (c, _, _) = StudioSessionTests().join(plain, out)
        plain.receiveBinary(Self.frame(1).encoded(), from: c, now: 1)
        #expect(out.take().last?["code"] == "camera_unavailable")
    }
}
