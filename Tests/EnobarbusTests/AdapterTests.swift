import Enobarbus
import Horatio
import Testing

func msg(_ address: String, _ args: OSCArgument...) -> OSCPacket { .message(OSCMessage(address, args)) }
func bundle(_ packets: OSCPacket...) -> OSCPacket { .bundle(OSCBundle(packets)) }

extension OSCFrameAssembler {
    /// The frames of one packet taken as a whole sender frame: ingested, then every open frame closed.
    mutating func frames(_ packet: OSCPacket, at time: Double) -> [TrackingFrame] {
        ingest(packet, at: time) + flush(now: .infinity)
    }
}

extension [TrackingFrame] {
    var faces: [FaceFrame] { compactMap { if case .face(let f) = $0 { f } else { nil } } }
    var hands: [HandFrame] { compactMap { if case .hand(let h) = $0 { h } else { nil } } }
    var touches: [TouchFrame] { compactMap { if case .touch(let t) = $0 { t } else { nil } } }
    var ended: [InputSourceID] { compactMap { if case .ended(let id, _) = $0 { id } else { nil } } }
}

@Suite struct AdapterTests {
    @Test func faceCapOrderIsARKitsSetMappedByName() {
        #expect(ARKitBlendshape.faceCapOrder.count == 52)
        #expect(Set(ARKitBlendshape.faceCapOrder).count == 52)
        // Spot checks from the Face Cap documentation (protocols.md §1.1).
        #expect(ARKitBlendshape(faceCapIndex: 0) == .browInnerUp)
        #expect(ARKitBlendshape(faceCapIndex: 13) == .eyeBlinkLeft)
        #expect(ARKitBlendshape(faceCapIndex: 19) == .cheekPuff)
        #expect(ARKitBlendshape(faceCapIndex: 24) == .jawOpen)
        #expect(ARKitBlendshape(faceCapIndex: 29) == .mouthPucker)
        #expect(ARKitBlendshape(faceCapIndex: 38) == .mouthSmileRight)
        #expect(ARKitBlendshape(faceCapIndex: 51) == .tongueOut)
        #expect(ARKitBlendshape(faceCapIndex: 52) == nil)
        #expect(ARKitBlendshape.jawOpen.rawValue == 24)  // alphabetical index: coincidence, not used
        #expect(ARKitBlendshape.mouthSmileLeft.rawValue == 43)
    }

    @Test func blendshapeNamesInEverySendersSpelling() {
        #expect(ARKitBlendshape(normalisedName: "jawOpen") == .jawOpen)
        #expect(ARKitBlendshape(normalisedName: "jawopen") == .jawOpen)
        #expect(ARKitBlendshape(normalisedName: "mouthSmile_L") == .mouthSmileLeft)
        #expect(ARKitBlendshape(normalisedName: "EYEBLINK_R") == .eyeBlinkRight)
        #expect(ARKitBlendshape(normalisedName: "_neutral") == nil)
    }

    @Test func nativeFaceBundleIsOneFrame() {
        var a = OSCFrameAssembler()
        let frames = a.frames(bundle(
            msg("/prospero/face/blend", .string("jawOpen"), .float32(0.5), .string("mouthSmile_L"), .int32(1)),
            msg("/prospero/face/head", .float32(10), .float32(-5), .float32(2))), at: 1.0)
        #expect(frames.count == 1)
        let f = frames.faces[0]
        #expect(f.blendshapes[.jawOpen] == 0.5 && f.blendshapes[.mouthSmileLeft] == 1)
        #expect(f.head == HeadRotation(yaw: 10, pitch: -5, roll: 2))
        #expect(f.timestamp == 1.0)
        // Blendshapes persist across packets; a later head message keeps them.
        let next = a.frames(msg("/prospero/face/head", .float32(0), .float32(0), .float32(0)), at: 1.1)
        #expect(next.faces.first?.blendshapes[.jawOpen] == 0.5)
        #expect(a.frames(msg("/prospero/face/end"), at: 1.2).ended == [.face])
    }

    @Test func nativeRejectsWrongArgumentsAndCountsThem() {
        var a = OSCFrameAssembler()
        #expect(a.frames(msg("/prospero/face/blend", .string("notAShape"), .float32(1)), at: 0).isEmpty)
        #expect(a.frames(msg("/prospero/touch", .int32(7), .float32(0), .float32(0), .float32(1)), at: 0).isEmpty)
        #expect(a.frames(msg("/prospero/hand", .int32(0), .string("left"), .float32(1), .float32(0)), at: 0).isEmpty)
        #expect(a.rejectedMessages == 3)
        #expect(a.lastRejection?.contains("63") == true)
        #expect(a.frames(msg("/unknown/thing", .int32(1)), at: 0).isEmpty)
        #expect(a.ignoredMessages == 1)
    }

    static func landmarks(seed: Float) -> [Float] { (0..<63).map { Float($0) / 100 + seed } }

    @Test func nativeHandFlatOrArray() {
        var a = OSCFrameAssembler()
        let values = Self.landmarks(seed: 0.01)
        let flat = a.frames(.message(OSCMessage("/prospero/hand", [.int32(2), .string("right"), .float32(0.8)] + values.map { .float32($0) })), at: 3)
        let h = flat.hands[0]
        #expect(h.slot == 2 && h.handedness == .right && h.confidence == 0.8)
        #expect(h[.thumbTip] == SIMD3(values[12], values[13], values[14]))
        let arrayForm = a.frames(.message(OSCMessage("/prospero/hand", [.int32(2), .string("right"), .float32(0.8), .array(values.map { .float32($0) })])), at: 4)
        #expect(arrayForm.hands[0].landmarks == h.landmarks)
        #expect(a.frames(msg("/prospero/hand/end", .int32(2)), at: 5).ended == [.hand(2)])
    }

    @Test func faceCapIndicesAndDegrees() {
        var a = OSCFrameAssembler()
        _ = a.frames(msg("/W", .int32(24), .float32(0.75)), at: 0)
        _ = a.frames(msg("/W", .int32(37), .int32(1)), at: 0)
        let f = a.frames(msg("/HR", .float32(5), .float32(-20), .float32(3)), at: 0).faces[0]
        #expect(f.blendshapes[.jawOpen] == 0.75)
        #expect(f.blendshapes[.mouthSmileLeft] == 1)
        #expect(f.head == HeadRotation(yaw: -20, pitch: 5, roll: 3))
    }

    @Test func quaternionToYawPitchRoll() throws {
        // 30° about +Y: q = (0, sin 15°, 0, cos 15°) → yaw 30.
        let s = Float(0.258819), c = Float(0.9659258)
        let yaw = try #require(HeadRotation(quaternionX: 0, y: s, z: 0, w: c))
        #expect(abs(yaw.yaw - 30) < 1e-3 && abs(yaw.pitch) < 1e-3 && abs(yaw.roll) < 1e-3)
        let pitch = try #require(HeadRotation(quaternionX: s, y: 0, z: 0, w: c))
        #expect(abs(pitch.pitch - 30) < 1e-3 && abs(pitch.yaw) < 1e-3)
        let roll = try #require(HeadRotation(quaternionX: 0, y: 0, z: -s, w: c))
        #expect(abs(roll.roll + 30) < 1e-3)
        #expect(HeadRotation(quaternionX: 0, y: 0, z: 0, w: 0) == nil)
        var a = OSCFrameAssembler()
        let f = a.frames(msg("/HRQ", .float32(0), .float32(s), .float32(0), .float32(c)), at: 0).faces[0]
        #expect(abs(f.head.yaw - 30) < 1e-3)
    }

    @Test func zigSimFaceBySuffix() {
        var a = OSCFrameAssembler()
        let frames = a.frames(bundle(
            msg("/ZIGSIM/my-phone/facejawopen", .float32(0.3)),
            msg("/my-phone/facemouthsmileleft", .float32(0.6)),
            msg("/ZIGSIM/my-phone/facerotation", .float32(0), .float32(0.258819), .float32(0), .float32(0.9659258))), at: 0)
        let f = frames.faces[0]
        #expect(f.blendshapes[.jawOpen] == 0.3 && f.blendshapes[.mouthSmileLeft] == 0.6)
        #expect(abs(f.head.yaw - 30) < 1e-3)
    }

    func zigTouches(_ points: [(Float, Float)]) -> OSCPacket {
        var packets: [OSCPacket] = [msg("/dev/facejawopen", .float32(0))]  // other ZIG SIM data in the same frame
        for (i, p) in points.enumerated() {
            packets.append(msg("/dev/touch\(i)1", .float32(p.0)))
            packets.append(msg("/dev/touch\(i)2", .float32(p.1)))
        }
        return .bundle(OSCBundle(packets))
    }

    @Test func zigSimTouchesKeepTheirSlotsWhenIndicesShift() {
        var a = OSCFrameAssembler()
        // Two fingers: A at left (−0.5, 0) → (0.25, 0.5), B at right (0.5, 0) → (0.75, 0.5).
        let first = a.frames(zigTouches([(-0.5, 0), (0.5, 0)]), at: 0).touches
        #expect(first.map(\.slot) == [0, 1])
        #expect(first[0].x == 0.25 && first[1].x == 0.75 && first[0].y == 0.5)
        // A lifts: B is now index 0 in ZIG SIM's list, but must stay in slot 1.
        let second = a.frames(zigTouches([(0.52, 0.02)]), at: 0.016)
        #expect(second.ended == [.touch(0)])
        #expect(second.touches.map(\.slot) == [1])
        #expect(abs(second.touches[0].x - 0.76) < 1e-6)
        // No touches: B ends.
        #expect(a.frames(zigTouches([]), at: 0.032).ended == [.touch(1)])
    }

    @Test func mediaPipeHandsCountThenFourValuesPerLandmark() {
        var a = OSCFrameAssembler()
        var args: [OSCArgument] = [.int32(2)]
        for hand in 0..<2 { for k in 0..<21 { args += [.float32(Float(k) / 40), .float32(Float(hand) / 2), .float32(-0.01), .float32(0.9)] } }
        let frames = a.frames(.message(OSCMessage("/mediapipe/hands", args)), at: 0)
        #expect(frames.hands.map(\.slot) == [0, 1])
        #expect(frames.hands[1][.pinkyTip] == SIMD3(0.5, 0.5, -0.01))
        #expect(frames.hands[0].handedness == .unknown)
        // One hand left: slot 1 ends.
        let one = a.frames(.message(OSCMessage("/mediapipe/hands", Array(args.prefix(85)).enumerated().map { $0.offset == 0 ? .int32(1) : $0.element })), at: 0.03)
        #expect(one.ended == [.hand(1)] && one.hands.map(\.slot) == [0])
        // Wrong length is rejected, not guessed.
        #expect(a.frames(msg("/mediapipe/hands", .int32(1), .float32(0)), at: 0.06).isEmpty)
        #expect(a.rejectedMessages == 1)
    }

    @Test func touchOSCMultiXY() {
        var a = OSCFrameAssembler()
        let t = a.frames(bundle(msg("/1/multixy1/1/z", .float32(1)), msg("/1/multixy1/1", .float32(0.2), .float32(0.7))), at: 0).touches
        #expect(t.count == 1 && t[0].slot == 0 && t[0].x == 0.2 && t[0].y == 0.7)
        let t2 = a.frames(msg("/1/multixy1/2", .float32(0.9), .float32(0.1)), at: 0.01).touches
        #expect(t2.map(\.slot) == [1])
        #expect(a.frames(msg("/1/multixy1/1/z", .float32(0)), at: 0.02).ended == [.touch(0)])
    }

    @Test func openStageControlMultiXYFlipsY() {
        var a = OSCFrameAssembler()
        let t = a.frames(msg("/multixy_1", .float32(0.1), .float32(0.2), .float32(0.8), .float32(0.9)), at: 0).touches
        #expect(t.map(\.slot) == [0, 1])
        #expect(t[0].x == 0.1 && abs(t[0].y - 0.8) < 1e-6 && abs(t[1].y - 0.1) < 1e-6)
        // With touch state, only held points are reported.
        #expect(a.frames(msg("/multixy_1/touch", .int32(1), .int32(0)), at: 0.01).ended == [.touch(1)])
        let held = a.frames(msg("/multixy_1", .float32(0.1), .float32(0.2), .float32(0.8), .float32(0.9)), at: 0.02)
        #expect(held.touches.isEmpty)  // point 0 never reported as held either
        _ = a.frames(msg("/multixy_1/touch", .int32(0), .int32(1)), at: 0.03)
        #expect(a.frames(msg("/multixy_1", .float32(0.3), .float32(0.2), .float32(0.8), .float32(0.9)), at: 0.04).touches.map(\.slot) == [0])
    }

    func tuio(alive: [Int32], sets: [(Int32, Float, Float)], fseq: Int32) -> OSCPacket {
        var packets: [OSCPacket] = [.message(OSCMessage("/tuio/2Dcur", [.string("alive")] + alive.map { .int32($0) }))]
        for s in sets {
            packets.append(msg("/tuio/2Dcur", .string("set"), .int32(s.0), .float32(s.1), .float32(s.2), .float32(0), .float32(0), .float32(0)))
        }
        packets.append(msg("/tuio/2Dcur", .string("fseq"), .int32(fseq)))
        return .bundle(OSCBundle(packets))
    }

    @Test func tuioSessionsGetStableSlots() {
        var a = OSCFrameAssembler()
        let f1 = a.frames(tuio(alive: [41, 42], sets: [(41, 0.1, 0.2), (42, 0.5, 0.5)], fseq: 1), at: 0)
        #expect(f1.touches.map(\.slot) == [0, 1])
        // 41 lifts; 42 keeps slot 1; 43 arrives and takes the free slot 0.
        let f2 = a.frames(tuio(alive: [42, 43], sets: [(42, 0.55, 0.5), (43, 0.9, 0.9)], fseq: 2), at: 0.02)
        // Slot 0 ended and was re-taken in the same bundle: an end, then the new touch.
        #expect(f2.ended == [.touch(0)])
        #expect(f2.map(\.source) == [.touch(0), .touch(0), .touch(1)])
        #expect(f2.touches.map(\.slot) == [0, 1])
        #expect(f2.touches[1].x == 0.55 && f2.touches[0].x == 0.9)
        #expect(a.tuio.slots == [42: 1, 43: 0])
        #expect(a.frames(tuio(alive: [], sets: [], fseq: 3), at: 0.04).ended == [.touch(0), .touch(1)])
    }

    @Test func swapHandedness() {
        var a = OSCFrameAssembler()
        a.swapHandedness = true
        let h = a.frames(.message(OSCMessage("/prospero/hand", [.int32(0), .string("left"), .float32(1)] + Self.landmarks(seed: 0).map { .float32($0) })), at: 0)
        #expect(h.hands[0].handedness == .right)
    }
}
