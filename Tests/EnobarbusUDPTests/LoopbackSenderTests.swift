import Enobarbus
import EnobarbusUDP
import Foundation
import Horatio
import NIOCore
import NIOPosix
import ProsperoTestSupport
import Testing

/// Collects packets from a receiver until `count` arrived, or until `grace` seconds after `sender` finished (every
/// packet sent: what has not arrived by then was lost), or `timeout` seconds without a sender: bounds for a busy
/// machine, not figures. Waiting on the sender rather than the clock: its processes start one after another on a
/// machine the whole suite keeps busy, and five of them took over 30 s there.
func collect(_ receiver: OSCUDPReceiver, count: Int, timeout: Double = Eventually.bound, after sender: Task<Void, any Error>? = nil,
             grace: Double = Eventually.bound / 2) async -> [ReceivedOSCPacket] {
    await withTaskGroup(of: [ReceivedOSCPacket]?.self) { group in
        group.addTask {
            var out: [ReceivedOSCPacket] = []
            for await p in receiver.packets {
                out.append(p)
                if out.count >= count { break }
            }
            return out
        }
        group.addTask {
            if let sender {
                _ = await sender.result
                try? await Task.sleep(for: .seconds(grace))
            } else {
                try? await Task.sleep(for: .seconds(timeout))
            }
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if let first { return first }
        // Timed out: close so the collecting task ends, and return what it had.
        try? await receiver.close().get()
        return (await group.next() ?? nil) ?? []
    }
}

/// Binds a receiver on an ephemeral loopback port, runs `send(port)` (a real sender process),
/// and returns the frames the packets produce.
/// `quietInterval` is the assembler's (long by default, so that only the senders' frame rules close
/// frames, whatever the scheduling gaps between their packets on a loaded machine).
func framesFromSender(expectPackets: Int, quietInterval: Double = 1, _ send: @escaping @Sendable (Int) async throws -> Void) async throws
    -> (frames: [TrackingFrame], assembler: OSCFrameAssembler, statistics: OSCReceiverStatistics) {
    let receiver = try await OSCUDPReceiver.bind(host: "127.0.0.1", port: 0).get()
    let port = receiver.localPort
    #expect(port > 0)
    let sender = Task { try await send(port) }
    let packets = await collect(receiver, count: expectPackets, after: sender)
    try await sender.value
    let statistics = receiver.statistics
    try await receiver.close().get()
    #expect(packets.count == expectPackets, "expected \(expectPackets) packets, got \(packets.count)")
    var assembler = OSCFrameAssembler()
    assembler.quietInterval = quietInterval
    var frames: [TrackingFrame] = []
    // In arrival order, 1 ms apart: what these tests check is how each sender's scheme maps to frames. The real gaps
    // are the senders' (one oscsend process per packet), and on a busy machine they ran past the quiet interval and
    // split a touch's frame; on a quiet one they are milliseconds, as here.
    for (i, p) in packets.enumerated() { frames += assembler.ingest(p.packet, at: (packets.first?.time ?? 0) + Double(i) * 0.001) }
    frames += assembler.flush(now: .infinity)
    return (frames, assembler, statistics)
}

extension [TrackingFrame] {
    var faces: [FaceFrame] { compactMap { if case .face(let f) = $0 { f } else { nil } } }
    var hands: [HandFrame] { compactMap { if case .hand(let h) = $0 { h } else { nil } } }
    var touches: [TouchFrame] { compactMap { if case .touch(let t) = $0 { t } else { nil } } }
    var ended: [InputSourceID] { compactMap { if case .ended(let id, _) = $0 { id } else { nil } } }
}

/// The 63 landmark coordinates the senders send: landmark k at (k/40, 1 − k/30, −k/1000),
/// computed in double precision and rounded to float32, as python-osc does.
let landmarkValues: [Float] = (0..<21).flatMap { (k: Int) -> [Float] in
    let d = Double(k)
    return [Float(d / 40), Float(1 - d / 30), Float(-d / 1000)]
}

@Suite(.serialized, .ownThread) struct PythonOSCSenderTests {
    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func nativeFaceBundleAndHand() async throws {
        let lm = landmarkValues.map { "\($0)" }.joined(separator: ",")
        let (frames, assembler, _) = try await framesFromSender(expectPackets: 3) { port in
            try await Peers.python("""
                send_bundle(msg("/prospero/face/blend", "jawOpen", 0.5, "browInnerUp", 0.25), msg("/prospero/face/head", 10.0, -5.0, 2.5))
                client.send_message("/prospero/hand", [1, "left", 0.75] + [\(lm)])
                client.send_message("/prospero/touch", [2, 0.25, 0.5, 0.875])
                """, port: port)
        }
        #expect(assembler.rejectedMessages == 0)
        let face = try #require(frames.faces.first)
        #expect(face.blendshapes[.jawOpen] == 0.5 && face.blendshapes[.browInnerUp] == 0.25)
        #expect(face.head == HeadRotation(yaw: 10, pitch: -5, roll: 2.5))
        let hand = try #require(frames.hands.first)
        #expect(hand.slot == 1 && hand.handedness == .left && hand.confidence == 0.75)
        #expect(hand.landmarks.flatMap { [$0.x, $0.y, $0.z] } == landmarkValues)
        #expect(frames.touches.first == TouchFrame(slot: 2, timestamp: frames.touches.first?.timestamp ?? 0, x: 0.25, y: 0.5, pressure: 0.875))
    }

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func faceCapOneMessagePerBlendshape() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 5) { port in
            try await Peers.python("""
                client.send_message("/W", [24, 0.75])
                client.send_message("/W", [29, 0.5])
                client.send_message("/HR", [4.0, -12.0, 1.5])
                client.send_message("/W", [24, 0.25])
                client.send_message("/HRQ", [0.0, 0.25881904510252074, 0.0, 0.9659258262890683])
                """, port: port)
        }
        // Two sender frames: the repeated /W 24 starts the second.
        #expect(frames.faces.count == 2)
        #expect(frames.faces[0].blendshapes[.jawOpen] == 0.75 && frames.faces[0].blendshapes[.mouthPucker] == 0.5)
        #expect(frames.faces[0].head == HeadRotation(yaw: -12, pitch: 4, roll: 1.5))
        let last = try #require(frames.faces.last)
        #expect(last.blendshapes[.jawOpen] == 0.25 && last.blendshapes[.mouthPucker] == 0.5)
        #expect(abs(last.head.yaw - 30) < 1e-3)
    }

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func zigSimBundlesWithShiftingTouchIndices() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 2) { port in
            try await Peers.python("""
                u = "/ZIGSIM/stage-phone"
                send_bundle(msg(u + "/facejawopen", 0.4), msg(u + "/facerotation", 0.0, 0.0, 0.0, 1.0),
                            msg(u + "/touch01", -0.5), msg(u + "/touch02", 0.0), msg(u + "/touchforce0", 0.5),
                            msg(u + "/touch11", 0.5), msg(u + "/touch12", 0.5))
                send_bundle(msg(u + "/facejawopen", 0.45), msg(u + "/touch01", 0.5), msg(u + "/touch02", 0.52))
                """, port: port)
        }
        #expect(frames.faces.map { $0.blendshapes[.jawOpen] } == [0.4, 0.45])
        // First frame: two touches; second: finger 0 lifted, finger 1 is now index 0 but keeps slot 1.
        #expect(frames.touches.map(\.slot) == [0, 1, 1])
        #expect(frames.touches[0].x == 0.25 && frames.touches[0].pressure == 0.5)
        #expect(frames.touches[1].x == 0.75 && frames.touches[1].y == 0.75)
        #expect(frames.ended == [.touch(0)])
        #expect(frames.touches[2].y == 0.76)
    }

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func mediaPipeHandsLikeMediapipeOSC() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 2) { port in
            try await Peers.python("""
                def hand(offset):
                    out = []
                    for k in range(21):
                        out += [k / 40 + offset, 1 - k / 30, -k / 1000, 0.99]
                    return out
                client.send_message("/mediapipe/hands", [2] + hand(0.0) + hand(0.5))
                client.send_message("/mediapipe/hands", [1] + hand(0.0))
                """, port: port)
        }
        #expect(frames.hands.map(\.slot) == [0, 1, 0])
        #expect(frames.hands[0].landmarks.flatMap { [$0.x, $0.y, $0.z] } == landmarkValues)
        #expect(abs(frames.hands[1][.wrist].x - 0.5) < 1e-7)
        #expect(frames.ended == [.hand(1)])
    }

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func tuioCursorsInBundles() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 3) { port in
            try await Peers.python("""
                def frame(alive, sets, fseq):
                    ms = [msg("/tuio/2Dcur", "alive", *alive)]
                    for s in sets:
                        ms.append(msg("/tuio/2Dcur", "set", s[0], s[1], s[2], 0.0, 0.0, 0.0))
                    ms.append(msg("/tuio/2Dcur", "fseq", fseq))
                    send_bundle(*ms)
                frame([7, 9], [(7, 0.1, 0.2), (9, 0.6, 0.7)], 100)
                frame([9], [(9, 0.65, 0.7)], 101)
                frame([], [], 102)
                """, port: port)
        }
        #expect(frames.map(\.source) == [.touch(0), .touch(1), .touch(0), .touch(1), .touch(1)])
        #expect(frames.ended == [.touch(0), .touch(1)])
        #expect(frames.touches.map(\.x) == [0.1, 0.6, 0.65])
    }

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC)))
    func pythonOSCBytesDecodeToTheSameMessage() async throws {
        // Every type python-osc 1.10 can write (all but c, t, S, I), decoded by our decoder.
        let receiver = try await OSCUDPReceiver.bind(port: 0).get()
        let port = receiver.localPort
        let sender = Task {
            try await Peers.python("""
                client.send(msg("/types", (7, "i"), (1.5, "f"), ("txt", "s"), (b"\\x01\\x02\\x03", "b"), (2**40, "h"),
                                (0.125, "d"), (True, "T"), (False, "F"), (None, "N"), ((0, 0x90, 60, 100), "m"),
                                (0x11223344, "r"), ([1, 2.5], None)))
                """, port: port)
        }
        let packets = await collect(receiver, count: 1, after: sender)
        try await sender.value
        try await receiver.close().get()
        let packet = try #require(packets.first?.packet)
        let message = try #require(packet.messages.first)
        #expect(message.arguments == [
            .int32(7), .float32(1.5), .string("txt"), .blob([1, 2, 3]), .int64(1 << 40), .float64(0.125),
            .true, .false, .nil, .midi(port: 0, status: 0x90, data1: 60, data2: 100),
            .rgba(0x1122_3344), .array([.int32(1), .float32(2.5)]),
        ])
    }
}

@Suite(.serialized, .ownThread) struct OSCSendSenderTests {
    @Test(.enabled(if: Peers.enabled(Peers.oscsend != nil)))
    func touchOSCMultiXY() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 4) { port in
            try await Peers.oscsend(port: port, "/1/multixy1/1/z", "f", ["1"])
            try await Peers.oscsend(port: port, "/1/multixy1/1", "ff", ["0.25", "0.75"])
            try await Peers.oscsend(port: port, "/1/multixy1/2", "ff", ["0.5", "0.125"])
            try await Peers.oscsend(port: port, "/1/multixy1/1/z", "f", ["0"])
        }
        #expect(frames.touches.map(\.slot) == [0, 1])
        #expect(frames.touches[0].x == 0.25 && frames.touches[0].y == 0.75 && frames.touches[1].y == 0.125)
        #expect(frames.ended == [.touch(0)])
    }

    @Test(.enabled(if: Peers.enabled(Peers.oscsend != nil)))
    func openStageControlMultiXY() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 1) { port in
            try await Peers.oscsend(port: port, "/multixy_1", "ffff", ["0.25", "0.25", "0.75", "1"])
        }
        #expect(frames.touches.map(\.slot) == [0, 1])
        #expect(frames.touches[0].y == 0.75 && frames.touches[1].x == 0.75 && frames.touches[1].y == 0)
    }

    @Test(.enabled(if: Peers.enabled(Peers.oscsend != nil)))
    func nativeSchemeFromOSCSend() async throws {
        let (frames, assembler, _) = try await framesFromSender(expectPackets: 5) { port in
            try await Peers.oscsend(port: port, "/prospero/face/blend", "sf", ["cheekPuff", "0.625"])
            try await Peers.oscsend(port: port, "/prospero/face/head", "fff", ["-30", "15", "5"])
            try await Peers.oscsend(port: port, "/prospero/hand", "isf" + String(repeating: "f", count: 63),
                              ["3", "right", "0.5"] + landmarkValues.map { "\($0)" })
            try await Peers.oscsend(port: port, "/prospero/touch", "ifff", ["0", "0.1", "0.2", "1"])
            try await Peers.oscsend(port: port, "/prospero/touch/end", "i", ["0"])
        }
        #expect(assembler.rejectedMessages == 0)
        #expect(frames.faces.last?.blendshapes[.cheekPuff] == 0.625)
        #expect(frames.faces.last?.head == HeadRotation(yaw: -30, pitch: 15, roll: 5))
        let hand = try #require(frames.hands.first)
        #expect(hand.slot == 3 && hand.handedness == .right)
        // oscsend parses decimal text with strtod and narrows to float, as Float("…") does.
        #expect(hand.landmarks.flatMap { [$0.x, $0.y, $0.z] } == landmarkValues)
        #expect(frames.ended == [.touch(0)])
    }

    @Test(.enabled(if: Peers.enabled(Peers.oscsend != nil)))
    func faceCapFromOSCSend() async throws {
        let (frames, _, _) = try await framesFromSender(expectPackets: 2) { port in
            try await Peers.oscsend(port: port, "/W", "if", ["51", "0.5"])
            try await Peers.oscsend(port: port, "/HR", "fff", ["1", "2", "3"])
        }
        #expect(frames.faces.last?.blendshapes[.tongueOut] == 0.5)
        #expect(frames.faces.last?.head == HeadRotation(yaw: 2, pitch: 1, roll: 3))
    }
}

@Suite(.serialized, .ownThread) struct ReceiverRobustnessTests {
    @Test func malformedDatagramsAreCountedAndTheReceiverKeepsGoing() async throws {
        let receiver = try await OSCUDPReceiver.bind(port: 0).get()
        let port = receiver.localPort
        let group = MultiThreadedEventLoopGroup.singleton
        let client = try await DatagramBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let target = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        func send(_ bytes: [UInt8]) async throws {
            try await client.writeAndFlush(AddressedEnvelope(remoteAddress: target, data: ByteBuffer(bytes: bytes))).get()
        }
        try await send([0x2F, 0x61, 0x00])                       // 3 bytes: size not a multiple of 4
        try await send(Array("/a\0\0,Q\0\0".utf8))                // unknown type tag
        try await send(try OSCEncoder.encode(OSCMessage("/prospero/touch", [.int32(0), .float32(0.5), .float32(0.5), .float32(1)])))
        let packets = await collect(receiver, count: 1)
        #expect(packets.count == 1)
        // The two bad datagrams were sent first; loopback keeps order, so they have been counted.
        let stats = receiver.statistics
        #expect(stats.malformed == 2 && stats.packets == 1)
        #expect(stats.lastError == .unknownTypeTag(tag: UInt8(ascii: "Q"), offset: 5))
        try await client.close()
        try await receiver.close().get()
    }

    @Test func bindsLoopbackByDefault() async throws {
        let receiver = try await OSCUDPReceiver.bind(port: 0).get()
        #expect(receiver.localAddress.hasPrefix("127.0.0.1:"))
        try await receiver.close().get()
    }
}
