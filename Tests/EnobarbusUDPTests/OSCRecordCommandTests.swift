import Enobarbus
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero osc record` as a user runs it, fed by a real Face Cap-like sender (python-osc) over loopback. The
/// frame rules on given times are OSCFrameAssembler's tests (SenderFrameTests); here, what a user sees in the file.
@Suite(.serialized, .ownThread) struct OSCRecordCommandTests {
    static var prospero: URL? { TestPeers.prospero }

    /// Face Cap's live mode at 60 fps for 10 s: per frame /HT, /HR, /HRQ and the 52 /W blendshapes, one
    /// datagram each (55 packets, 33 000 in all), every weight of frame k equal to (k + 1) / 1000.
    static let faceCapSender = """
        import sys, time
        from pythonosc.udp_client import SimpleUDPClient
        client = SimpleUDPClient("127.0.0.1", int(sys.argv[1]))
        start = time.perf_counter() + 0.05
        for k in range(600):
            delay = start + k / 60 - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            value = (k + 1) / 1000
            client.send_message("/HT", [0.0, 0.0, 0.4])
            client.send_message("/HR", [2.0, -3.0, 1.0])
            client.send_message("/HRQ", [0.0, 0.0, 0.0, 1.0])
            for i in range(52):
                client.send_message("/W", [i, value])
        """

    @Test(.enabled(if: Peers.enabled(Peers.pythonOSC && prospero != nil)))
    func faceCapAtSixtyFramesASecondRecordsOneLinePerFrame() async throws {
        let prospero = try TestPeers.require(Self.prospero, "the prospero executable (swift build)")
        let python3 = try TestPeers.require(Peers.python3, "python3")
        try TestPeers.require(Peers.pythonOSC, "python-osc (pip install python-osc)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osc-record-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        // The recorder runs until it is stopped; the banner names the port bound:
        // "prospero osc record FILE on udp 127.0.0.1:PORT (…)".
        let (recorder, banner, out) = try CLIProcess.startWithBanner(prospero, ["osc", "record", file.path, "--port", "0"])
        defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
        let port = try #require(CLIProcess.loopbackPort(in: banner), "\(banner)")

        let sent = try await Peers.run(python3, ["-c", Self.faceCapSender, "\(port)"], timeout: 120)
        #expect(sent.status == 0, "\(sent.output)")
        // Every datagram is on its way; the recorder writes its lines a quarter of a second at a time: it is stopped
        // once the last frame (every weight 0.6) is in the file.
        let faces = { () -> [FaceFrame] in
            let recording = try? RecordingReader.parse(Array((try? Data(contentsOf: file)) ?? Data()))
            return recording?.frames.compactMap { if case .face(let f) = $0 { f } else { nil } } ?? []
        }
        try await Eventually.holds("the last frame in the recording") { faces().last?.blendshapes[.tongueOut] == Float(0.6) }
        kill(recorder.processIdentifier, SIGINT)
        try await Eventually.holds("osc record's stop after SIGINT") { !recorder.isRunning }
        let summary = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(recorder.terminationStatus == 0, "\(summary)")

        let recording = try RecordingReader.parse(Array(try Data(contentsOf: file)))
        let recorded = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
        #expect(recorded.count == recording.frames.count)
        // One line per sender frame, not one per packet (33 000): a frame closes on its /W 51 (Face Cap's frame end).
        // A sender held back for over 50 ms inside a burst (the assembler's quiet close for Face Cap) splits that frame
        // in two, which a busy machine does now and then; a frame never merges with another.
        #expect((600..<1_200).contains(recording.frames.count), "\(recording.frames.count) lines; \(summary)")
        // Whole frames: all 52 weights from the same sender frame, in order; every one of the 600 ends whole (the part
        // of a split frame before its gap repeats the previous frame's weights with its own head).
        let whole = recorded.filter { f in ARKitBlendshape.allCases.allSatisfy { f.blendshapes[$0] == f.blendshapes[.browInnerUp] } }
        let values = whole.map { $0.blendshapes[.browInnerUp] }
        #expect(Set(values).count == 600, "\(Set(values).count) whole frames of 600")
        #expect(values == values.sorted())
    }
}
