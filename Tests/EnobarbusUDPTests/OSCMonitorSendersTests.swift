import Enobarbus
import Foundation
import ProsperoTestSupport
import Testing

/// `prospero osc monitor` and `osc record` as a user runs them, with every face sender on the one port:
/// datagrams built byte by byte from the documented formats (SenderTestPackets), sent over loopback UDP.
@Suite(.serialized, .ownThread) struct OSCMonitorSendersTests {
    /// Starts `prospero ARGS --port 0`, returns the process, its output pipe and the port from its banner.
    static func start(_ arguments: [String]) throws -> (Process, Pipe, Int) {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let (process, banner, out) = try CLIProcess.startWithBanner(prospero, arguments + ["--port", "0"])
        let port = try #require(CLIProcess.loopbackPort(in: banner), "\(banner)")
        return (process, out, port)
    }

    /// Stops `process` (SIGINT, as Ctrl-C) and returns the rest of what it printed.
    static func finish(_ process: Process, _ out: Pipe) -> String {
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Reads the monitor's reports (paragraphs, twice a second) as it prints them until one satisfies `done`, within
    /// ``Eventually/bound``; that report, and all it printed so far.
    static func report(from out: Pipe, _ done: (String) -> Bool) -> (report: String?, text: String) {
        var text = ""
        let deadline = Date().addingTimeInterval(Eventually.bound)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let report = text.components(separatedBy: "\n\n").dropLast().last(where: done) { return (report, text) }
        }
        return (nil, text)
    }

    @Test func theMonitorDecodesEachSenderOnOnePort() throws {
        let (process, out, port) = try Self.start(["osc", "monitor"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let sender = try UDPTestSender()
        for datagram in [
            SenderTestPackets.iFacialMocap(jawOpen: 50, smileLeft: 37, headRX: 10, headRY: -5, headRZ: 2),
            SenderTestPackets.liveLinkFace(jawOpen: 0.25, browInnerUp: 0.75),
            SenderTestPackets.faceOSC(scale: 4, mouthHeight: 1),
            SenderTestPackets.mpmocap(jawOpen: 0.6),
            SenderTestPackets.visage(jawOpen: 0.4, smileLeft: 0.9),
            SenderTestPackets.wekinatorOutputs([0.1, 0.9, 0.5]),
            SenderTestPackets.faceCap(index: 24, weight: 0.3),
            [0xFF, 0x00, 0x12],
            Array("jawOpen-x|".utf8),
        ] {
            #expect(sender.send(datagram, port: port))
            usleep(20_000)  // one sender frame each (Face Cap's closes after its quiet interval)
        }
        // The first report that counts every datagram: one line per sender with its decoded face.
        let counted = "senders: Face Cap 1, iFacialMocap 1, Live Link Face 1, FaceOSC 11, mpmocap/Phiz 1, Visage 1, Wekinator 1"
        let (seen, printed) = Self.report(from: out) { $0.contains(counted) && $0.contains("malformed 2") }
        let text = printed + Self.finish(process, out)
        #expect(process.terminationStatus == 0, "\(text)")
        let report = try #require(seen, "no report counted every datagram: \(text)")
        let lines = report.split(separator: "\n").map(String.init)
        func line(_ sender: String) -> String? { lines.first { $0.hasPrefix(sender + " ") } }
        #expect(line("iFacialMocap").map { $0.contains("jawOpen 0.50") && $0.contains("mouthSmileLeft 0.37") && $0.contains("pitch   10.0°") } == true, "\(report)")
        #expect(line("Live Link Face").map { $0.contains("browInnerUp 0.75") && $0.contains("jawOpen 0.25") } == true, "\(report)")
        #expect(line("FaceOSC")?.contains("face") == true, "\(report)")
        #expect(line("mpmocap/Phiz")?.contains("jawOpen 0.60") == true, "\(report)")
        #expect(line("Visage").map { $0.contains("mouthSmileLeft 0.90") && $0.contains("jawOpen 0.40") } == true, "\(report)")
        #expect(line("Face Cap")?.contains("jawOpen 0.30") == true, "\(report)")
        #expect(line("Wekinator")?.contains("outputs 0.100 0.900 0.500") == true, "\(report)")
        #expect(report.contains("malformed 2"), "\(report)")
        #expect(report.contains("last malformed packet: iFacialMocap"), "\(report)")
    }

    @Test func recordKeepsTheFramesOfTheTextAndBinarySenders() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osc-record-senders-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let (process, out, port) = try Self.start(["osc", "record", file.path])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let sender = try UDPTestSender()
        sender.send(SenderTestPackets.iFacialMocap(jawOpen: 50, smileLeft: 37, headRX: 10, headRY: -5, headRZ: 2), port: port)
        sender.send(SenderTestPackets.liveLinkFace(jawOpen: 0.25, browInnerUp: 0.75), port: port)
        // The recorder writes its lines a quarter of a second at a time: stopped once both frames are in the file.
        try Eventually.holds("two frames in the recording") {
            ((try? RecordingReader.parse(Array((try? Data(contentsOf: file)) ?? Data())))?.frames.count ?? 0) >= 2
        }
        let text = Self.finish(process, out)
        #expect(process.terminationStatus == 0, "\(text)")
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: file)))
        let faces = recording.frames.compactMap { if case .face(let f) = $0 { f } else { nil } }
        #expect(faces.count == 2, "\(recording.frames)")
        #expect(faces.first.map { $0.blendshapes[.jawOpen] == 0.5 && $0.head.pitch == 10 } == true)
        #expect(faces.last.map { $0.blendshapes[.browInnerUp] == 0.75 } == true)
    }
}
