import Studio
import Testing

/// The studio camera's preview (`prospero studio --camera`): at most ``StudioCameraDesk/maximumPreviewRate`` a second
/// on the frames' own read times, to the pages subscribed to `camera` only, while every frame is still tracked.
@Suite("Studio camera preview rate")
struct StudioCameraPreviewRateTests {
    /// The sequence numbers of the previews in `binaries` (kind 0x22, UInt32 little-endian at bytes 1–4).
    static func previews(_ binaries: [[UInt8]]) -> [UInt32] {
        binaries.filter { $0.first == StudioCameraPreview.kind && $0.count > StudioCameraPreview.headerBytes }
            .map { $0[1...4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    @Test("frames read 50 ms apart: a preview every 100 ms (1/15 s passed), numbered in order, to the watching page alone; every frame tracked")
    func previewRate() throws {
        let bridge = StudioCameraTests.ScriptedBridge()
        let desk = StudioCameraDesk(bridge: bridge)
        let session = StudioSession(instruments: [StudioToneInstrument()], camera: desk)
        let watching = StudioSessionTests.Outbox(), other = StudioSessionTests.Outbox()
        let w = session.connect(outbox: watching.send)
        session.receive(Array(#"{"type":"hello","client":null,"subscribe":["camera"]}"#.utf8), from: w, now: 0)
        let o = session.connect(outbox: other.send)
        session.receive(Array(#"{"type":"hello","client":null,"subscribe":["state"]}"#.utf8), from: o, now: 0)
        // 21 frames at 10.00, 10.05 … 11.00 s: 1/15 s is 66.7 ms, so every second frame is previewed.
        for k in 0...20 {
            desk.submitStudioFrame(jpeg: StudioCameraTests.jpeg, width: 320, height: 240, now: 10 + Double(k) * 0.05)
            // The bridge answers each frame, so that the next one goes to it.
            if let last = bridge.taken.withLock({ $0.last }) {
                bridge.say(#"{"id":\#(last.id),"stream":\#(last.stream),"ms":5,"face":{"blend":{"jawOpen":0.5},"head":[0,0,0]}}"#)
            }
        }
        #expect(Self.previews(watching.binaries()) == Array(1...11))
        #expect(Self.previews(other.binaries()).isEmpty, "a page not subscribed to camera got a preview")
        #expect(bridge.taken.withLock { $0.count } == 21, "every frame is tracked, previewed or not")
        // 60 ms after the last preview (at 11 s): none; 70 ms after it, past 1/15 s: the next.
        desk.submitStudioFrame(jpeg: StudioCameraTests.jpeg, width: 320, height: 240, now: 11.06)
        #expect(Self.previews(watching.binaries()) == Array(1...11))
        desk.submitStudioFrame(jpeg: StudioCameraTests.jpeg, width: 320, height: 240, now: 11.07)
        #expect(Self.previews(watching.binaries()) == Array(1...12))
    }
}
