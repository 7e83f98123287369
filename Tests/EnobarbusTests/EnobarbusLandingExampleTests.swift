import Enobarbus
import Horatio
import Testing

@Suite("Enobarbus's landing example")
struct EnobarbusLandingExampleTests {
    @Test("the landing page's example runs as written")
    func example() throws {
        // One face, as a sender's OSC bundle arriving in a UDP datagram.
        let bundle = OSCPacket.bundle(OSCBundle([
            .message(OSCMessage("/prospero/face/blend", [.string("jawOpen"), .float32(0.6)])),
            .message(OSCMessage("/prospero/face/head", [.float32(10), .float32(-5), .float32(0)])),
        ]))
        let datagram = try OSCEncoder.encode(bundle)

        var assembler = OSCFrameAssembler()
        var frames = try assembler.ingest(OSCDecoder.decode(datagram), at: 1.0)
        // Senders that mark no frame end are closed by quiet; at the end of input, close them all.
        frames += assembler.flush(now: .infinity)

        var lifecycle = SourceLifecycle(timeout: 0.25)
        let events = lifecycle.ingest(frames, at: 1.0)

        #expect(frames.count == 1)
        guard case .face(let face) = try #require(frames.first) else {
            Issue.record("expected a face frame, got \(frames)")
            return
        }
        #expect(abs(face.blendshapes[.jawOpen] - 0.6) < 1e-6)
        #expect(face.head.yaw == 10 && face.head.pitch == -5)
        #expect(face.timestamp == 1.0)
        guard case .appeared(.face) = try #require(events.first) else {
            Issue.record("expected the face to appear, got \(events)")
            return
        }
        #expect(events.count == 1)
    }
}
