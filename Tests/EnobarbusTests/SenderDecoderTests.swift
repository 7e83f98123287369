import Enobarbus
import Foundation
import Horatio
import Testing

/// Packets built byte by byte from protocols.md §1.3–1.7, not through the code under test.
enum SenderBytes {
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func float(_ f: Float) -> [UInt8] { be32(f.bitPattern) }

    /// A Live Link Face datagram: version 6 LE, "$"+36-char UUID, name, frame, sub-frame, fps, denominator, 61 values.
    static func liveLinkFace(values: [Float], name: String = "iPhone", count: UInt8 = 61, version: UInt32 = 6) -> [UInt8] {
        var b = le32(version)
        b += Array("$0123ABCD-0000-1111-2222-333344445555".utf8)
        b += be32(UInt32(name.utf8.count)) + Array(name.utf8)
        b += be32(1234) + float(0.5) + be32(60) + be32(1)
        b.append(count)
        for v in values { b += float(v) }
        return b
    }

    /// An OSC message with float arguments, padded by hand (address, ",fff…", big-endian floats).
    static func oscFloats(_ address: String, _ values: [Float]) -> [UInt8] {
        func padded(_ s: String) -> [UInt8] {
            var b = Array(s.utf8) + [0]
            while b.count % 4 != 0 { b.append(0) }
            return b
        }
        return padded(address) + padded("," + String(repeating: "f", count: values.count)) + values.flatMap(float)
    }
}

@Suite struct SenderDecoderTests {
    // MARK: iFacialMocap

    @Test func iFacialMocapV1AndV2ValueSyntax() throws {
        var d = IFacialMocapDecoder()
        let v1 = Array("trackingStatus-1|mouthSmile_L-37|eyeBlink_R-2|jawOpen-100|=head#-2.5,10,3,0.01,0.02,0.3|rightEye#1,2,3|leftEye#1,2,3|".utf8)
        guard case .face(let f) = try d.decode(v1, at: 2) else { Issue.record("no face"); return }
        #expect(abs(f.blendshapes[.mouthSmileLeft] - 0.37) < 1e-6)
        #expect(abs(f.blendshapes[.eyeBlinkRight] - 0.02) < 1e-6)
        #expect(f.blendshapes[.jawOpen] == 1)
        #expect(f.head == HeadRotation(yaw: 10, pitch: -2.5, roll: 3))
        #expect(f.timestamp == 2)
        let v2 = Array("mouthSmile_R&50|cheekPuff&25|=head#0,0,0,0,0,0|".utf8)
        guard case .face(let g) = try d.decode(v2, at: 3) else { Issue.record("no face"); return }
        #expect(g.blendshapes[.mouthSmileRight] == 0.5 && g.blendshapes[.cheekPuff] == 0.25)
        // TCP terminator and an unknown key (skipped, counted).
        guard case .face(let h) = try d.decode(Array("newKey-3|browInnerUp-80|___iFacialMocap".utf8), at: 4) else { return }
        #expect(abs(h.blendshapes[.browInnerUp] - 0.8) < 1e-6)
        #expect(d.unknownNames == 1)
        #expect(try d.decode(Array("trackingStatus-0|".utf8), at: 5) == .ended(.face, timestamp: 5))
    }

    @Test func iFacialMocapMalformedIsATypedError() {
        var d = IFacialMocapDecoder()
        #expect(throws: IFacialMocapDecodingError.notText) { try d.decode([], at: 0) }
        #expect(throws: IFacialMocapDecodingError.notText) { try d.decode([0x6A, 0xFF, 0xFE], at: 0) }
        #expect(throws: IFacialMocapDecodingError.missingSeparator(token: "jawOpen")) { try d.decode(Array("jawOpen|".utf8), at: 0) }
        #expect(throws: IFacialMocapDecodingError.badValue(token: "jawOpen-abc")) { try d.decode(Array("jawOpen-abc|".utf8), at: 0) }
        #expect(throws: IFacialMocapDecodingError.badValue(token: "jawOpen-101")) { try d.decode(Array("jawOpen-101".utf8), at: 0) }
        #expect(throws: IFacialMocapDecodingError.badTransform(token: "head#1,2")) { try d.decode(Array("=head#1,2|".utf8), at: 0) }
        #expect(throws: IFacialMocapDecodingError.badTransform(token: "head#1,x,3")) { try d.decode(Array("head#1,x,3".utf8), at: 0) }
        #expect(throws: IFacialMocapDecodingError.noFaceData) { try d.decode(Array("|||".utf8), at: 0) }
    }

    @Test func iFacialMocapHandshakeBytesAndPorts() {
        let h = IFacialMocapHandshake.iFacialMocap(version2: true)
        #expect(String(decoding: h.payload, as: UTF8.self) == "iFacialMocap_sahuasouryya9218sauhuiayeta91555dy3719|sendDataVersion=v2")
        #expect(h.phonePort == 49983 && h.receiverPort == 49983)
        #expect(IFacialMocapHandshake.faceMotion3D.phonePort == 49993)
        #expect(String(decoding: IFacialMocapHandshake.faceMotion3D.payload, as: UTF8.self) == "FACEMOTION3D_OtherStreaming")
    }

    // MARK: Live Link Face

    @Test func liveLinkFaceOrderIsUnrealsAndCoversARKit() {
        let order = ARKitBlendshape.liveLinkFaceOrderNames.map { ARKitBlendshape(normalisedName: $0) }
        #expect(order.count == 52 && !order.contains(nil) && Set(order).count == 52)
        #expect(order[17] == .jawOpen && order[20] == .mouthPucker && order[23] == .mouthSmileLeft)
        #expect(order[24] == .mouthSmileRight && order[43] == .browInnerUp && order[46] == .cheekPuff && order[51] == .tongueOut)
        let mp = ARKitBlendshape.mpmocapOrderNames.map { ARKitBlendshape(normalisedName: $0) }
        #expect(mp.count == 52 && !mp.contains(nil) && Set(mp).count == 52)
        #expect(mp[0] == .browInnerUp && mp[19] == .cheekPuff && mp[25] == .mouthPucker && mp[47] == .jawOpen && mp[51] == .tongueOut)
    }

    @Test func liveLinkFaceDecodesUnrealOrderAndHead() throws {
        var values = [Float](repeating: 0, count: 61)
        values[17] = 0.75; values[23] = 0.5; values[46] = 1.5  // cheekPuff over 1: clamped
        values[52] = Float.pi / 6; values[53] = -Float.pi / 18; values[54] = 0
        let bytes = SenderBytes.liveLinkFace(values: values)
        #expect(bytes.count == 4 + 37 + 4 + 6 + 16 + 1 + 244)
        let p = try LiveLinkFaceDecoder().decode(bytes, at: 7)
        #expect(p.subject == "iPhone" && p.frameNumber == 1234 && p.frameRate == 60 && p.subFrame == 0.5)
        #expect(p.face.blendshapes[.jawOpen] == 0.75 && p.face.blendshapes[.mouthSmileLeft] == 0.5)
        #expect(p.face.blendshapes[.cheekPuff] == 1)
        #expect(abs(p.face.head.yaw - 30) < 1e-4 && abs(p.face.head.pitch + 10) < 1e-4)
        #expect(p.face.timestamp == 7 && p.rawValues == values.map { $0 })
    }

    @Test func liveLinkFaceMalformedIsATypedError() {
        let d = LiveLinkFaceDecoder()
        let good = SenderBytes.liveLinkFace(values: .init(repeating: 0.1, count: 61))
        #expect(throws: LiveLinkFaceDecodingError.unsupportedVersion(5)) {
            try d.decode(SenderBytes.liveLinkFace(values: .init(repeating: 0, count: 61), version: 5), at: 0)
        }
        #expect(throws: LiveLinkFaceDecodingError.badValueCount(60)) {
            try d.decode(SenderBytes.liveLinkFace(values: .init(repeating: 0, count: 60), count: 60), at: 0)
        }
        #expect(throws: LiveLinkFaceDecodingError.truncated(field: "value", offset: good.count - 4, needed: 4, available: 3)) {
            try d.decode(Array(good.dropLast()), at: 0)
        }
        #expect(throws: LiveLinkFaceDecodingError.trailingBytes(1)) { try d.decode(good + [0], at: 0) }
        var longName = good
        longName[41] = 0x7F  // the name length's high byte (bytes 41…44): far past the end
        #expect(throws: LiveLinkFaceDecodingError.badNameLength(0x7F00_0006)) { try d.decode(longName, at: 0) }
        var noDollar = good
        noDollar[4] = UInt8(ascii: "#")
        #expect(throws: LiveLinkFaceDecodingError.badDeviceID) { try d.decode(noDollar, at: 0) }
        // Every prefix is rejected with a typed error, never a trap.
        for n in 0..<good.count { #expect(throws: LiveLinkFaceDecodingError.self) { try d.decode(Array(good.prefix(n)), at: 0) } }
    }

    // MARK: detection and one port for all

    @Test func detectorTellsFormatsApart() {
        #expect(SenderDatagramFormat.detect(SenderBytes.oscFloats("/wek/outputs", [1])) == .osc)
        #expect(SenderDatagramFormat.detect(Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1]) == .osc)
        #expect(SenderDatagramFormat.detect(SenderBytes.liveLinkFace(values: .init(repeating: 0, count: 61))) == .liveLinkFace)
        #expect(SenderDatagramFormat.detect(Array("mouthSmile_L-37|".utf8)) == .iFacialMocap)
        #expect(SenderDatagramFormat.detect(Array("=head#1,2,3,4,5,6|".utf8)) == .iFacialMocap)
        #expect(SenderDatagramFormat.detect(Array("hello world".utf8)) == nil)
        #expect(SenderDatagramFormat.detect([0xFF, 0, 1]) == nil)
        #expect(SenderDatagramFormat.detect([]) == nil)
    }

    @Test func onePortDecodesEverySender() throws {
        var d = SenderDatagramDecoder()
        let text = try d.decode(Array("jawOpen-50|".utf8), at: 1)
        #expect(text.format == .iFacialMocap && text.frames.faces.first?.blendshapes[.jawOpen] == 0.5)
        var values = [Float](repeating: 0, count: 61)
        values[43] = 0.25
        let llf = try d.decode(SenderBytes.liveLinkFace(values: values), at: 2)
        #expect(llf.format == .liveLinkFace && llf.frames.faces.first?.blendshapes[.browInnerUp] == 0.25)
        var mp = [Float](repeating: 0, count: 52)
        mp[47] = 0.6  // jawOpen in mpmocap's order
        let osc = try d.decode(SenderBytes.oscFloats("/mpmocap/blendshapes", mp), at: 3)
        #expect(osc.frames.faces.first.map { abs($0.blendshapes[.jawOpen] - 0.6) < 1e-6 } == true)
        #expect(osc.remainingOSC == nil)
        // A native message is left for OSCFrameAssembler.
        let native = try d.decode(SenderBytes.oscFloats("/prospero/face/head", [1, 2, 3]), at: 4)
        #expect(native.frames.isEmpty)
        var assembler = OSCFrameAssembler()
        // The assembler closes the sender's frame after its quiet interval.
        _ = assembler.ingest(try #require(native.remainingOSC), at: 4)
        #expect(assembler.flush(now: .infinity).faces.first?.head == HeadRotation(yaw: 1, pitch: 2, roll: 3))
        // Wekinator outputs are a control vector, not a frame.
        let wek = try d.decode(SenderBytes.oscFloats("/wek/outputs", [0.25, 0.75]), at: 5)
        #expect(wek.wekinatorOutputsChanged && d.wekinator.outputs == [0.25, 0.75] && wek.frames.isEmpty)
        // Garbage is rejected and counted.
        #expect(throws: SenderDatagramError.unrecognised(length: 3, firstByte: 0xFF)) { try d.decode([0xFF, 1, 2], at: 6) }
        #expect(throws: SenderDatagramError.self) { try d.decode(Array("jawOpen-x|".utf8), at: 6) }
        #expect(d.rejectedDatagrams == 2)
        #expect(d.acceptedByFormat[.osc] == 3 && d.acceptedByFormat[.liveLinkFace] == 1 && d.acceptedByFormat[.iFacialMocap] == 1)
    }

    // MARK: FaceOSC, Visage, mpmocap, Wekinator

    /// One FaceOSC frame bundle: scale s, every gesture raw = normalised × s.
    static func faceOSCFrame(scale s: Float, mouthHeight: Float = 1, mouthWidth: Float = 12, eyebrows: Float = 7,
                             eyes: Float = 3, orientation: [Float] = [0, 0, 0]) -> OSCPacket {
        func m(_ a: String, _ v: [Float]) -> OSCPacket { .message(OSCMessage(a, v.map { .float32($0) })) }
        return .bundle(OSCBundle([
            m("/pose/position", [320, 240]), m("/pose/scale", [s]), m("/pose/orientation", orientation),
            m("/gesture/mouth/width", [mouthWidth * s]), m("/gesture/mouth/height", [mouthHeight * s]),
            m("/gesture/eyebrow/left", [eyebrows * s]), m("/gesture/eyebrow/right", [eyebrows * s]),
            m("/gesture/eye/left", [eyes * s]), m("/gesture/eye/right", [eyes * s]),
            m("/gesture/jaw", [20 * s]), m("/gesture/nostrils", [5 * s]),
        ]))
    }

    @Test func faceOSCNormalisesByScaleAndCalibrates() {
        var d = SenderDatagramDecoder()
        d.faceOSC = FaceOSCAdapter(calibration: FaceOSCCalibration(framesToAverage: 3))
        // Neutral at three distances: the scale divides out, so the neutral is the same.
        for (k, s) in [Float(3), 4, 5].enumerated() {
            let out = d.ingest(Self.faceOSCFrame(scale: s), at: Double(k))
            #expect(out.frames.faces.first?.blendshapes[.jawOpen] == 0)
        }
        #expect(d.faceOSC.calibration.isCalibrated)
        // Mouth opened to 2.5× its neutral height (span 3 → weight 0.5), at another distance.
        let open = d.ingest(Self.faceOSCFrame(scale: 6, mouthHeight: 2.5), at: 4).frames.faces.first
        #expect(open.map { abs($0.blendshapes[.jawOpen] - 0.5) < 1e-5 } == true)
        // Wider mouth (+12.5 %, span 25 % → 0.5 smile), eyes half closed (span 50 % → blink 1), head in radians → degrees.
        let smile = d.ingest(Self.faceOSCFrame(scale: 2, mouthWidth: 13.5, eyes: 1.5, orientation: [0.1, -0.2, 0]), at: 5).frames.faces.first
        #expect(smile.map { abs($0.blendshapes[.mouthSmileLeft] - 0.5) < 1e-5 && $0.blendshapes[.eyeBlinkLeft] == 1 } == true)
        #expect(smile.map { abs($0.head.yaw + 0.2 * 180 / .pi) < 1e-3 && abs($0.head.pitch - 0.1 * 180 / .pi) < 1e-3 } == true)
        // /found 0 ends the face; a bad scale is rejected.
        #expect(d.ingest(.message(OSCMessage("/found", [.int32(0)])), at: 6).frames.ended == [.face])
        _ = d.ingest(.message(OSCMessage("/pose/scale", [.float32(-1)])), at: 7)
        #expect(d.rejectedMessages == 1)
    }

    @Test func visageTakesFaceCapOrderedBlendshapes() {
        var d = SenderDatagramDecoder()
        var v = [Float](repeating: 0, count: 63)
        v[24] = 0.4; v[37] = 0.9  // jawOpen, mouthSmileLeft in Face Cap order
        let f = d.ingest(.message(OSCMessage("/visage", v.map { .float32($0) })), at: 1).frames.faces.first
        #expect(f.map { abs($0.blendshapes[.jawOpen] - 0.4) < 1e-6 && abs($0.blendshapes[.mouthSmileLeft] - 0.9) < 1e-6 } == true)
        _ = d.ingest(.message(OSCMessage("/visage", [.float32(1)])), at: 2)
        #expect(d.rejectedMessages == 1)
    }

    @Test func mpmocapHeadQuaternion() throws {
        var d = SenderDatagramDecoder()
        // 30° about Y: (0, sin 15°, 0, cos 15°) → yaw 30 in HeadRotation's convention.
        let s = sin(Float.pi / 12), c = cos(Float.pi / 12)
        let out = try d.decode(SenderBytes.oscFloats("/mpmocap/headRotation", [0, s, 0, c]), at: 1)
        #expect(out.frames.faces.first.map { abs($0.head.yaw - 30) < 1e-3 } == true)
        _ = try d.decode(SenderBytes.oscFloats("/mpmocap/headRotation", [0, 0, 0, 0]), at: 2)
        _ = try d.decode(SenderBytes.oscFloats("/mpmocap/blendshapes", [1, 2]), at: 3)
        #expect(d.rejectedMessages == 2)
    }

    @Test func wekinatorInputsAreFixedLengthFloatVectors() throws {
        let enc = WekinatorInputEncoder()
        #expect(enc.inputCount == 115)
        var face = FaceFrame(timestamp: 0)
        face.blendshapes[.jawOpen] = 0.5
        let bytes = enc.datagram(face: face, hand: nil)
        // "/wek/inputs\0" (12) + "," + 115 "f" + NUL padded to 120 + 115 × 4.
        #expect(bytes.count == 12 + 120 + 460)
        #expect(Array(bytes.prefix(12)) == Array("/wek/inputs\0".utf8))
        let packet = try OSCDecoder.decode(bytes)
        guard case .message(let m) = packet else { Issue.record("not a message"); return }
        #expect(m.arguments.count == 115 && m.arguments[ARKitBlendshape.jawOpen.rawValue] == .float32(0.5))
        let handOnly = WekinatorInputEncoder(includeFace: false, handSlot: 0)
        let hand = HandFrame(slot: 0, timestamp: 0, landmarks: (0..<21).map { SIMD3(Float($0), 0.5, .nan) })
        let f = handOnly.features(face: nil, hand: hand)
        #expect(f.count == 63 && f[3] == 1 && f[4] == 0.5 && f[5] == 0)
    }
}

/// Wekinator's outputs as instrument controls (WekinatorControlMapping's documented layout).
@Suite struct WekinatorControlMappingTests {
    @Test func outputsBecomeHecatesFaceAndControllers20To31() {
        let face = WekinatorControlMapping.face([0.5, 2, -1, .nan, 0.25, 0.75, 1, 0, 0.5], at: 3)
        #expect(face.timestamp == 3)
        #expect(face.blendshapes[.jawOpen] == 0.5 && face.blendshapes[.browInnerUp] == 1 && face.blendshapes[.cheekPuff] == 0)
        #expect(face.blendshapes[.mouthPucker] == 0 && face.blendshapes[.mouthSmileLeft] == 0.25 && face.blendshapes[.mouthSmileRight] == 0.75)
        #expect(face.head == HeadRotation(yaw: 30, pitch: -30, roll: 0))
        // Fewer outputs: the rest stays neutral.
        #expect(WekinatorControlMapping.face([0.2], at: 0).head == .neutral)
        let cc = WekinatorControlMapping.controllers([0, 1, 0.5, .infinity] + [Float](repeating: 0.1, count: 20))
        #expect(cc.count == 12 && cc.first! == (20, 0) && cc[1] == (21, 127) && cc[2] == (22, 64) && cc[3] == (23, 0) && cc.last! == (31, 13))
    }

    @Test func decoderCountsEachSender() throws {
        var d = SenderDatagramDecoder()
        _ = try d.decode(Array("jawOpen-50|".utf8), at: 1)
        let wek = try d.decode(SenderBytes.oscFloats("/wek/outputs", [0.5]), at: 2)
        #expect(wek.sender == .wekinator)
        let visage = try d.decode(SenderBytes.oscFloats("/visage", [Float](repeating: 0, count: 63)), at: 3)
        #expect(visage.sender == .visage && visage.frames.count == 1)
        let native = try d.decode(SenderBytes.oscFloats("/prospero/face/head", [1, 2, 3]), at: 4)
        #expect(native.sender == nil)
        #expect(d.acceptedBySender == [.iFacialMocap: 1, .wekinator: 1, .visage: 1])
    }
}
