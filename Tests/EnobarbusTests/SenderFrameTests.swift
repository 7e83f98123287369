import Enobarbus
import Horatio
import Testing

/// One frame per sender frame: each sender's rule (Sources/Enobarbus/README.md), on packets built here.
@Suite struct SenderFrameTests {
    /// One Face Cap frame as it arrives: head messages and 52 `/W` blendshapes, one datagram each,
    /// 20 µs apart, every weight `value`.
    static func faceCapFrame(value: Float) -> [OSCPacket] {
        [msg("/HT", .float32(0), .float32(0), .float32(0.4)), msg("/HR", .float32(2), .float32(-3), .float32(1)),
         msg("/HRQ", .float32(0), .float32(0), .float32(0), .float32(1)), msg("/ELR", .float32(0), .float32(0)),
         msg("/ERR", .float32(0), .float32(0))]
            + (0..<52).map { msg("/W", .int32(Int32($0)), .float32(value)) }
    }

    /// Feeds `packets` at `start`, 20 µs apart, and returns what came out.
    static func feed(_ a: inout OSCFrameAssembler, _ packets: [OSCPacket], start: Double) -> [TrackingFrame] {
        var out: [TrackingFrame] = []
        for (k, p) in packets.enumerated() { out += a.ingest(p, at: start + Double(k) * 20e-6) }
        return out
    }

    @Test func faceCapSixtyFramesASecondGiveSixtyFaces() {
        var a = OSCFrameAssembler()
        var faces: [FaceFrame] = []
        for k in 0..<60 {
            let start = Double(k) / 60
            faces += Self.feed(&a, Self.faceCapFrame(value: Float(k + 1) / 100), start: start).faces
            // The receive loop's flush, every 5 ms until the next frame.
            for tick in stride(from: start + 0.005, to: start + 1.0 / 60, by: 0.005) { faces += a.flush(now: tick).faces }
        }
        faces += a.flush(now: .infinity).faces
        #expect(faces.count == 60, "57 packets per frame give one face per frame, not \(faces.count)")
        for (k, face) in faces.enumerated() {
            // Each face is whole: all 52 weights of the same frame, stamped with its last packet's arrival.
            #expect(ARKitBlendshape.allCases.allSatisfy { face.blendshapes[$0] == Float(k + 1) / 100 })
            #expect(abs(face.timestamp - (Double(k) / 60 + 56 * 20e-6)) < 1e-9)
        }
        #expect(a.framesByFormat[.faceCap] == 60)
    }

    /// Face Cap's format marks its frame's last message (`/W 51`): the very first frame closes on it, as it
    /// arrives, with no quiet wait and nothing learned; a burst paused mid-frame by the sender is not split.
    @Test func faceCapFramesCloseOnTheirLastIndexFromTheFirstFrame() {
        var a = OSCFrameAssembler()
        let packets = Self.faceCapFrame(value: 0.3)
        let beforeLast = Self.feed(&a, Array(packets.dropLast()), start: 0)
        #expect(beforeLast.isEmpty && a.hasOpenFrames)
        #expect(a.flush(now: 0.02).isEmpty, "a pause of 20 ms mid-burst does not split the frame")
        let closed = a.ingest(packets.last!, at: 0.021)
        #expect(closed.faces.count == 1 && !a.hasOpenFrames && a.learnedFrameEnd(of: .faceCap) == nil)
        #expect(ARKitBlendshape.allCases.allSatisfy { closed.faces[0].blendshapes[$0] == 0.3 })
        #expect(closed.faces[0].timestamp == 0.021)
        // A frame whose /W 51 was lost still closes: on the next frame's first message (a repeated key),
        // or after 50 ms of quiet.
        _ = Self.feed(&a, Array(Self.faceCapFrame(value: 0.4).dropLast()), start: 0.05)
        #expect(a.flush(now: 0.06).isEmpty)
        #expect(a.flush(now: 0.102).faces.map { $0.blendshapes[.jawOpen] } == [0.4])
        // Other senders that mark no end keep the 5 ms quiet close.
        #expect(a.ingest(msg("/1/multixy1/1", .float32(0.2), .float32(0.3)), at: 1).isEmpty)
        #expect(a.flush(now: 1.005).touches.count == 1)
    }

    @Test func faceCapFramesBackToBackCloseOnTheRepeatedKey() {
        var a = OSCFrameAssembler()
        a.learnedQuietInterval = 1  // no quiet close: only the repeated key separates the frames
        // Frames whose last message (/W 51) was lost.
        let first = Self.feed(&a, Array(Self.faceCapFrame(value: 0.25).dropLast()), start: 0)
        #expect(first.isEmpty, "the frame stays open until something closes it")
        let second = Self.feed(&a, Array(Self.faceCapFrame(value: 0.5).dropLast()), start: 0.0012)
        #expect(second.faces.count == 1 && second.faces[0].blendshapes[.jawOpen] == 0.25)
        #expect(second.faces[0].timestamp == 55 * 20e-6)
        let last = a.flush(now: .infinity)
        #expect(last.faces.count == 1 && last.faces[0].blendshapes[.mouthStretchRight] == 0.5)
        #expect(a.flush(now: .infinity).isEmpty && !a.hasOpenFrames)
    }

    @Test func quietCloseNeedsFiveMilliseconds() {
        var a = OSCFrameAssembler()
        #expect(a.ingest(msg("/1/multixy1/1", .float32(0.2), .float32(0.3)), at: 1).isEmpty)
        #expect(a.ingest(msg("/1/multixy1/2", .float32(0.6), .float32(0.7)), at: 1.002).isEmpty)
        #expect(a.flush(now: 1.0069).isEmpty)
        let touches = a.flush(now: 1.007).touches
        #expect(touches.map(\.slot) == [0, 1] && touches.allSatisfy { $0.timestamp == 1.002 })
    }

    @Test func aBundleIsOneFrameAtItsEnd() {
        var a = OSCFrameAssembler()
        // Native loose messages are one open frame; a bundle from the same sender closes it first.
        #expect(a.ingest(msg("/prospero/touch", .int32(0), .float32(0.1), .float32(0.1), .float32(1)), at: 0).isEmpty)
        let frames = a.ingest(bundle(
            msg("/prospero/touch", .int32(0), .float32(0.2), .float32(0.2), .float32(1)),
            msg("/prospero/touch", .int32(1), .float32(0.3), .float32(0.3), .float32(1))), at: 0.001)
        #expect(frames.touches.map(\.x) == [0.1, 0.2, 0.3])
        #expect(!a.hasOpenFrames)
    }

    @Test func keysInsideABundleMayRepeat() {
        var a = OSCFrameAssembler()
        // TUIO sends its whole frame as one bundle; two `set`s of one session stay one frame.
        let frames = a.ingest(bundle(
            msg("/tuio/2Dcur", .string("alive"), .int32(5)),
            msg("/tuio/2Dcur", .string("set"), .int32(5), .float32(0.1), .float32(0.1)),
            msg("/tuio/2Dcur", .string("set"), .int32(5), .float32(0.4), .float32(0.4)),
            msg("/tuio/2Dcur", .string("fseq"), .int32(1))), at: 0)
        #expect(frames.touches.map(\.x) == [0.4])
    }

    @Test func frameEndingMessagesCloseAtOnce() {
        var a = OSCFrameAssembler()
        // TUIO sent loose (no bundle): fseq ends the frame.
        #expect(a.ingest(msg("/tuio/2Dcur", .string("alive"), .int32(5), .int32(6)), at: 0).isEmpty)
        #expect(a.ingest(msg("/tuio/2Dcur", .string("set"), .int32(5), .float32(0.1), .float32(0.2)), at: 0).isEmpty)
        #expect(a.ingest(msg("/tuio/2Dcur", .string("set"), .int32(6), .float32(0.3), .float32(0.4)), at: 0).isEmpty)
        #expect(a.ingest(msg("/tuio/2Dcur", .string("fseq"), .int32(9)), at: 0).touches.count == 2)
        // mediapipe-osc: one message is the whole frame.
        let hand: [OSCArgument] = [.int32(1)] + (0..<84).map { _ in .float32(0.5) }
        #expect(a.ingest(.message(OSCMessage("/mediapipe/hands", hand)), at: 0.01).hands.count == 1)
        // Open Stage Control: the widget message is the whole state of the pad.
        #expect(a.ingest(msg("/multixy_1", .float32(0.1), .float32(0.2)), at: 0.02).touches.count == 1)
        #expect(!a.hasOpenFrames)
    }

    @Test func zigSimPacketsOfOneFrameAreOneFrame() {
        var a = OSCFrameAssembler()
        a.quietInterval = 1
        // ZIG SIM can send a frame as several packets; the repeated address starts the next frame.
        func frame(_ jaw: Float, _ x: Float) -> [OSCPacket] {
            [msg("/ZIGSIM/p/facejawopen", .float32(jaw)), msg("/ZIGSIM/p/facerotation", .float32(0), .float32(0), .float32(0), .float32(1)),
             bundle(msg("/ZIGSIM/p/touch01", .float32(x)), msg("/ZIGSIM/p/touch02", .float32(0)))]
        }
        var out = Self.feed(&a, frame(0.1, -0.5), start: 0)
        out += Self.feed(&a, frame(0.2, -0.4), start: 0.016)
        out += a.flush(now: .infinity)
        #expect(out.faces.map { $0.blendshapes[.jawOpen] } == [0.1, 0.2])
        #expect(out.touches.map(\.slot) == [0, 0])
        #expect(out.ended.isEmpty, "the finger stays down across frames")
    }

    @Test func eachSenderHasItsOwnFrame() {
        var a = OSCFrameAssembler()
        // Face Cap is mid-frame when a TUIO bundle arrives: the bundle closes only TUIO's frame.
        let packets = Self.faceCapFrame(value: 0.3)
        #expect(Self.feed(&a, Array(packets.prefix(20)), start: 0).isEmpty)
        let tuio = a.ingest(bundle(msg("/tuio/2Dcur", .string("alive"), .int32(1)),
                                   msg("/tuio/2Dcur", .string("set"), .int32(1), .float32(0.5), .float32(0.5)),
                                   msg("/tuio/2Dcur", .string("fseq"), .int32(1))), at: 0.0005)
        #expect(tuio.map(\.source) == [.touch(0)])
        #expect(a.hasOpenFrames, "Face Cap's frame is still open")
        // The rest of Face Cap's frame: nothing closes until its last message, /W 51, which closes the whole
        // frame (the weights sent before and after the TUIO bundle) as it arrives.
        let rest = Array(packets.dropFirst(20))
        #expect(Self.feed(&a, Array(rest.dropLast()), start: 0.0006).isEmpty)
        let face = a.ingest(rest.last!, at: 0.0016)
        #expect(face.map(\.source) == [.face])
        #expect(ARKitBlendshape.allCases.allSatisfy { face.faces.first?.blendshapes[$0] == 0.3 })
        #expect(face.faces.first?.timestamp == 0.0016)
        #expect(!a.hasOpenFrames && a.flush(now: .infinity).isEmpty)
    }

    @Test func aSendersFrameEndIsLearnedFromThreeFramesInARow() {
        var a = OSCFrameAssembler()
        var faces: [FaceFrame] = []
        for k in 0..<3 {
            faces += Self.feed(&a, Self.faceCapFrame(value: Float(k + 1) / 10), start: Double(k) / 60).faces
            faces += a.flush(now: Double(k) / 60 + 0.007).faces
        }
        #expect(faces.count == 3 && a.learnedFrameEnd(of: .faceCap) == "/W 51")
        // Now /W 51 closes the frame as it arrives: no quiet wait, and a 20 ms stall mid-burst does not split it.
        let packets = Self.faceCapFrame(value: 0.4)
        var out = Self.feed(&a, Array(packets.prefix(30)), start: 0.05)
        out += a.flush(now: 0.07)
        #expect(out.isEmpty, "paused mid-frame: still open")
        out += Self.feed(&a, Array(packets.dropFirst(30)), start: 0.07)
        #expect(out.faces.count == 1 && out.faces[0].blendshapes[.tongueOut] == 0.4)
        // A sender that stops ending there (here: frames without /W 51) is forgotten after three frames.
        for k in 0..<3 {
            _ = Self.feed(&a, Array(Self.faceCapFrame(value: 0.5).dropLast()), start: 0.1 + Double(k) / 60)
            _ = a.flush(now: 0.1 + Double(k) / 60 + 0.06)
        }
        #expect(a.learnedFrameEnd(of: .faceCap) == "/W 50")
    }
}
