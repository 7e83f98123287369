import Enobarbus
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero osc record` as a user runs it, fed by a real Face Cap-like sender (python-osc) over loopback.
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
        // The recorder's 14 s run from its start; the sender's 10 s from its own, after Python's start. On a machine
        // busy enough that the sender ends later than 13 s into the recording, its last frames may come after the
        // recorder stopped: that attempt says nothing of the recorder, and is made again (up to three times).
        for attempt in 1...3 {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("osc-record-\(getpid())-\(attempt).jsonl")
            defer { try? FileManager.default.removeItem(at: file) }
            // The recorder stops itself after 14 s (the sender takes 10 s); killed by pid if it is late.
            // The banner names the port bound: "prospero osc record FILE on udp 127.0.0.1:PORT (…)".
            let (recorder, banner, out) = try CLIProcess.startWithBanner(prospero, ["osc", "record", file.path, "--port", "0", "--duration", "14"])
            defer { if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) } }
            let started = Date()
            let port = try #require(CLIProcess.loopbackPort(in: banner), "\(banner)")

            let sent = try await Peers.run(python3, ["-c", Self.faceCapSender, "\(port)"], timeout: 40)
            let senderEnded = Date().timeIntervalSince(started)
            #expect(sent.status == 0, "\(sent.output)")
            let deadline = Date().addingTimeInterval(20)
            while recorder.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(!recorder.isRunning, "osc record stops after --duration")
            let summary = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

            let recording = try RecordingReader.parse(Array(try Data(contentsOf: file)))
            let faces = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
            if faces.last?.blendshapes[.tongueOut] != Float(0.6) && senderEnded > 13 && attempt < 3 {
                print("osc record: the sender ended \(String(format: "%.1f", senderEnded)) s into the 14 s recording (a busy machine); made again")
                continue
            }
            #expect(faces.count == recording.frames.count)
            // One line per sender frame: 600, not 33 000 (a line per packet). A scheduling gap of 5 ms inside a burst on
            // a loaded machine splits that frame in two, so allow up to a tenth more (37 splits in a fresh clone's test
            // phase, the python sender beside the browser and JACK tests); never fewer (no frame merges).
            #expect((600...660).contains(recording.frames.count), "\(recording.frames.count) lines; \(summary)")
            // Whole frames: all 52 weights from the same sender frame, in order.
            // (A split frame's first part repeats the previous frame's weights with its own head.)
            let whole = faces.filter { f in ARKitBlendshape.allCases.allSatisfy { f.blendshapes[$0] == f.blendshapes[.browInnerUp] } }
            let values = whole.map { $0.blendshapes[.browInnerUp] }
            #expect(Set(values).count >= 590, "\(Set(values).count) whole frames of 600")
            #expect(values == values.sorted())
            #expect(faces.last?.blendshapes[.tongueOut] == Float(0.6), "the sender ended \(senderEnded) s into the recording; \(summary)")
            return
        }
    }
}
