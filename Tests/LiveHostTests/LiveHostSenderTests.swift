import Enobarbus
import Foundation
import LiveHost
import ProsperoTestSupport
import Synchronization
import Testing

/// An instrument that keeps the frames with their sender, and Wekinator's controls.
@Suite(.ownThread)
final class SenderRecordingInstrument: LiveInstrument, @unchecked Sendable {
    let frames = Mutex<[(TrackingFrame, InputSender?)]>([])
    let controls = Mutex<[[Float]]>([])
    func receive(_ frames: [TrackingFrame], at time: Double) { receive(frames, from: nil, at: time) }
    func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) {
        self.frames.withLock { $0 += frames.map { ($0, sender) } }
    }
    func receiveControls(_ outputs: [Float], at time: Double) { controls.withLock { $0.append(outputs) } }
    func advance(to time: Double) {}
    func finish(at time: Double) {}
    func statusLine(at time: Double) -> String? { nil }
}

/// A sink that keeps what the host sends.
@Suite(.ownThread)
final class RecordingSink: DatagramSink, @unchecked Sendable {
    let sent = Mutex<[([UInt8], DatagramSender)]>([])
    func send(_ bytes: [UInt8], to destination: DatagramSender) -> Bool {
        sent.withLock { $0.append((bytes, destination)) }
        return true
    }
}

/// A clock the test moves by hand.
@Suite(.ownThread)
final class ManualClock: @unchecked Sendable {
    let seconds = Mutex(0.0)
    func set(_ t: Double) { seconds.withLock { $0 = t } }
    var now: Double { seconds.withLock { $0 } }
}

/// Every sender on the one input: each datagram's format is detected, decoded, counted per sender and
/// handed to the instrument with its sender; malformed datagrams are counted, never fatal.
@Suite(.ownThread) struct LiveHostSenderTests {
    @Test func everySenderOnOnePortReachesTheInstrumentWithItsName() throws {
        let source = ScriptedSource()
        let instrument = SenderRecordingInstrument()
        let stop = LiveStop()
        let host = LiveHost(source: source, instrument: instrument, stop: stop)
        try host.start()
        let datagrams: [[UInt8]] = [
            SenderTestPackets.iFacialMocap(jawOpen: 50, smileLeft: 37, headRX: 10, headRY: -5, headRZ: 2),
            SenderTestPackets.liveLinkFace(jawOpen: 0.25, browInnerUp: 0.75),
            SenderTestPackets.faceOSC(scale: 4, mouthHeight: 1),
            SenderTestPackets.mpmocap(jawOpen: 0.6),
            SenderTestPackets.visage(jawOpen: 0.4, smileLeft: 0.9),
            SenderTestPackets.wekinatorOutputs([0.1, 0.9, 0.5]),
            SenderTestPackets.faceCap(index: 24, weight: 0.3),
            [0xFF, 0x00, 0x12],  // no known format
            Array("jawOpen-x|".utf8),  // iFacialMocap text with a bad value
            Array(SenderTestPackets.liveLinkFace(jawOpen: 0, browInnerUp: 0).prefix(60)),  // truncated binary
            SenderTestPackets.osc("/visage", floats: [1]),  // a known OSC sender with the wrong count
        ]
        for (k, d) in datagrams.enumerated() { source.send(d, from: "127.0.0.1", at: Double(k)) }
        stop.request(.requested)
        let status = try host.run()
        #expect(status.packets == 8 && status.malformed == 3)
        #expect(status.rejectedMessages == 1)
        #expect(status.senders[.iFacialMocap] == 1 && status.senders[.liveLinkFace] == 1 && status.senders[.faceOSC] == 11)
        #expect(status.senders[.mpmocap] == 1 && status.senders[.visage] == 1 && status.senders[.wekinator] == 1 && status.senders[.faceCap] == 1)
        #expect(status.wekinatorOutputs == [0.1, 0.9, 0.5])
        #expect(status.lastMalformed?.contains("from 127.0.0.1:5000") == true)
        let frames = instrument.frames.withLock { $0 }
        func face(_ sender: InputSender) -> FaceFrame? {
            frames.last { $0.1 == sender }.flatMap { if case .face(let f) = $0.0 { f } else { nil } }
        }
        #expect(face(.iFacialMocap).map { $0.blendshapes[.jawOpen] == 0.5 && $0.blendshapes[.mouthSmileLeft] == 0.37 && $0.head.pitch == 10 && $0.head.yaw == -5 } == true)
        #expect(face(.liveLinkFace).map { $0.blendshapes[.jawOpen] == 0.25 && $0.blendshapes[.browInnerUp] == 0.75 } == true)
        #expect(face(.faceOSC) != nil)
        #expect(face(.mpmocap).map { abs($0.blendshapes[.jawOpen] - 0.6) < 1e-6 } == true)
        #expect(face(.visage).map { abs($0.blendshapes[.mouthSmileLeft] - 0.9) < 1e-6 } == true)
        // Face Cap's lone /W closes when the input ends (the assembler's frame), with its sender known.
        #expect(face(.faceCap).map { abs($0.blendshapes[.jawOpen] - 0.3) < 1e-6 } == true)
        #expect(instrument.controls.withLock { $0 } == [[0.1, 0.9, 0.5]])
    }

    /// `--wekinator`: the latest face goes out as a 115-float `/wek/inputs` vector; `--ifacialmocap`: the
    /// handshake goes to the phone's port 49983 at the start and every interval until the phone answers.
    @Test func wekinatorVectorsAndTheHandshakeGoOutThroughTheSink() throws {
        let source = ScriptedSource()
        let sink = RecordingSink()
        let clock = ManualClock()
        let stop = LiveStop()
        let handshake = PhoneHandshake(destination: DatagramSender(address: "192.168.1.20", port: 49983),
                                       payload: IFacialMocapHandshake.iFacialMocap(version2: false).payload,
                                       answeredBy: .iFacialMocap, repeatInterval: 0.5)
        let host = LiveHost(source: source, instrument: SenderRecordingInstrument(), stop: stop,
                            options: LiveHostOptions(allow: .any, statusInterval: 0.001, wekinator: WekinatorFeed(), handshake: handshake),
                            sink: sink, clock: { clock.now })
        try host.start()
        let thread = Thread { _ = try? host.run() }
        thread.start()
        defer { stop.request(.requested) }
        func waitFor(_ condition: () -> Bool) throws {
            try Eventually.holds("status \(host.status), sent \(sink.sent.withLock { $0.count })", condition)
        }
        /// Moves the clock and waits for a loop pass at that time (its status snapshot).
        func move(to t: Double) throws {
            clock.set(t)
            try waitFor { host.status.elapsed == t }
        }
        try waitFor { host.status.handshakesSent == 1 }
        try move(to: 0.3)
        #expect(host.status.handshakesSent == 1)
        try move(to: 0.6)
        #expect(host.status.handshakesSent == 2)
        let bytes = sink.sent.withLock { $0 }
        #expect(bytes.allSatisfy { $0.1 == DatagramSender(address: "192.168.1.20", port: 49983) })
        #expect(bytes.first.map { String(decoding: $0.0, as: UTF8.self) } == "iFacialMocap_sahuasouryya9218sauhuiayeta91555dy3719")
        // The phone answers: its face frame is decoded, no more handshakes, and a feature vector goes to Wekinator.
        source.send(SenderTestPackets.iFacialMocap(jawOpen: 50, smileLeft: 37, headRX: 0, headRY: 0, headRZ: 0), from: "192.168.1.20", at: 0.6)
        try waitFor { host.status.packets == 1 }
        try move(to: 5)
        #expect(host.status.senders[.iFacialMocap] == 1 && host.status.handshakesSent == 2)
        try waitFor { host.status.wekinatorVectorsSent == 1 }
        let vector = try #require(sink.sent.withLock { $0 }.last { $0.1 == WekinatorFeed.defaultDestination })
        let floats = try #require(SenderTestPackets.wekinatorInputs(vector.0))
        #expect(floats.count == 115)
        // ARKit's alphabetical order: jawOpen is the 25th name, mouthSmileLeft the 44th; no hand: zeros.
        #expect(floats[24] == 0.5 && floats[43] == 0.37 && floats[52...].allSatisfy { $0 == 0 })
        // Nothing new: no second vector.
        try move(to: 6)
        #expect(host.status.wekinatorVectorsSent == 1)
    }
}
