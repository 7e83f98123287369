import Enobarbus
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoTestSupport
import Synchronization
import Testing

/// An instrument that keeps what the host gives it.
@Suite(.ownThread)
final class RecordingInstrument: LiveInstrument, @unchecked Sendable {
    let log = Mutex<[String]>([])
    let frames = Mutex<[(TrackingFrame, Double)]>([])

    func receive(_ frames: [TrackingFrame], at time: Double) {
        self.frames.withLock { $0 += frames.map { ($0, time) } }
    }
    func advance(to time: Double) {}
    func finish(at time: Double) { log.withLock { $0.append("finish") } }
    func statusLine(at time: Double) -> String? { "line" }
}

/// A source the test feeds by hand.
@Suite(.ownThread)
final class ScriptedSource: DatagramSource, @unchecked Sendable {
    let deliver = Mutex<(@Sendable (Datagram) -> Void)?>(nil)
    let closed = Atomic<Bool>(false)
    var localAddress: String { "script" }
    func start(deliver: @escaping @Sendable (Datagram) -> Void) throws { self.deliver.withLock { $0 = deliver } }
    func close() { closed.store(true, ordering: .relaxed) }
    func send(_ bytes: [UInt8], from address: String, at time: Double) {
        let d = deliver.withLock { $0 }
        d?(Datagram(bytes: bytes, sender: DatagramSender(address: address, port: 5000), arrival: time))
    }
}

@Suite(.ownThread) struct LiveHostTests {
    /// `/prospero/touch slot x y pressure` (the native scheme's touch message).
    static func touch(_ slot: Int32, x: Float, y: Float) -> [UInt8] {
        try! OSCEncoder.encode(OSCMessage("/prospero/touch", [.int32(slot), .float32(x), .float32(y), .float32(0.5)]))
    }

    /// The host's run on a thread of its own and its final status.
    final class HostRun: @unchecked Sendable {
        private let result = Mutex<LiveHostStatus?>(nil)
        init(_ host: LiveHost) {
            let thread = Thread { [self] in let s = try? host.run(); result.withLock { $0 = s } }
            thread.start()
        }
        var status: LiveHostStatus? { result.withLock { $0 } }
    }

    @Test func framesReachTheInstrumentWithTheirArrivalTimesAndTheStopFinishesItOnce() throws {
        let source = ScriptedSource()
        let instrument = RecordingInstrument()
        let stop = LiveStop()
        let clock = ManualClock()
        clock.set(1)
        // A status at every pass of the loop, so that a pass at a time the test set can be waited for.
        let host = LiveHost(source: source, instrument: instrument, stop: stop, options: LiveHostOptions(statusInterval: 1e-6),
                            clock: { clock.now })
        try host.start()
        let result = HostRun(host)
        let arrival = 1.0
        source.send(Self.touch(0, x: 0.25, y: 0.5), from: "127.0.0.1", at: arrival)
        source.send([1, 2, 3], from: "127.0.0.1", at: arrival)  // not OSC
        source.send(Self.touch(1, x: 0.75, y: 0.5), from: "192.168.1.9", at: arrival)  // outside the default loopback list
        try Eventually.holds("the datagrams handled: \(host.status)") { host.status.packets == 1 && host.status.malformed == 1 }
        /// Moves the host's clock to `t` and waits for a pass of its loop at that time (its status snapshot).
        func move(to t: Double) throws {
            clock.set(t)
            try Eventually.holds("a pass of the loop at \(t): \(host.status)") { host.status.elapsed == t - 1 }
        }
        // The lone touch's sender frame closes once the assembler's quiet interval (5 ms) has passed on the host's clock.
        try move(to: 1.004)
        #expect(instrument.frames.withLock { $0.isEmpty }, "closed before its quiet interval")
        try move(to: 1.005)
        #expect(instrument.frames.withLock { $0.count } == 1)
        stop.request(.requested)
        try Eventually.holds("the host's end") { result.status != nil }
        let status = try #require(result.status)
        let frames = instrument.frames.withLock { $0 }
        #expect(frames.count == 1)
        #expect(frames.first?.0.timestamp == arrival)
        // Closed by quiet, it still reaches the instrument with its arrival time (its timing is the input's).
        #expect(frames.first?.1 == arrival)
        if case .touch(let t)? = frames.first?.0 { #expect(t.slot == 0 && t.x == 0.25) } else { Issue.record("\(frames)") }
        #expect(status.packets == 1 && status.malformed == 1 && status.refused == 1 && status.frames == 1)
        #expect(status.lastRefusedSender == "192.168.1.9:5000")
        #expect(instrument.log.withLock { $0 } == ["finish"])
        let closed = source.closed.load(ordering: .relaxed)
        #expect(closed)
    }

    /// Over real UDP: a sender on 127.0.0.2 is outside an allow-list of 127.0.0.1/32, so its packets
    /// are dropped unread and counted; the one on 127.0.0.1 is played.
    @Test func aSenderOutsideTheAllowListIsDroppedAndCounted() throws {
        let instrument = RecordingInstrument()
        let stop = LiveStop()
        let source = UDPDatagramSource(host: "127.0.0.1", port: 0)
        let host = LiveHost(source: source, instrument: instrument, stop: stop,
                            options: LiveHostOptions(allow: try SenderAllowList(parsing: ["127.0.0.1/32"])))
        try host.start()
        let result = HostRun(host)
        let outsider = try UDPTestSender(from: "127.0.0.2")
        let insider = try UDPTestSender(from: "127.0.0.1")
        for _ in 0..<3 { outsider.send(Self.touch(1, x: 0.9, y: 0.9), port: source.boundPort) }
        insider.send(Self.touch(0, x: 0.25, y: 0.5), port: source.boundPort)
        try Eventually.holds("three refused, one played: \(host.status)") { host.status.refused == 3 && host.status.packets == 1 }
        stop.request(.requested)
        try Eventually.holds("the host's end") { result.status != nil }
        let status = try #require(result.status)
        #expect(status.refused == 3)
        #expect(status.lastRefusedSender?.hasPrefix("127.0.0.2:") == true)
        #expect(status.packets == 1)
        #expect(instrument.frames.withLock { $0.count } == 1)
    }

    /// The socket asks for a receive buffer of over a second of a Face Cap stream, and gets what the kernel allows
    /// (`net.core.rmem_max`; Linux reports twice the granted size).
    @Test func theSocketAsksForALargeReceiveBuffer() throws {
        let source = UDPDatagramSource(host: "127.0.0.1", port: 0)
        try source.start { _ in }
        defer { source.close() }
        let limit = (try? String(contentsOfFile: "/proc/sys/net/core/rmem_max", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 212_992
        let expected = 2 * min(UDPDatagramSource.requestedReceiveBuffer, limit)
        #expect(source.receiveBufferBytes == expected, "granted \(source.receiveBufferBytes) bytes; rmem_max \(limit)")
    }

    /// The input queue keeps the newest datagrams when the loop falls behind, and the status counts the rest.
    @Test func aFloodBeyondTheInboxIsCountedAsDropped() throws {
        let source = ScriptedSource()
        let instrument = RecordingInstrument()
        let stop = LiveStop()
        let host = LiveHost(source: source, instrument: instrument, stop: stop, options: LiveHostOptions(inboxCapacity: 8))
        try host.start()
        // Not running yet: everything queues, so 20 datagrams into 8 places drop 12. Each touch repeats
        // the slot, so each closes the sender frame before it; the stop flushes the last.
        for k in 0..<20 { source.send(Self.touch(0, x: Float(k) / 20, y: 0.5), from: "127.0.0.1", at: Double(k)) }
        stop.request(.requested)
        let status = try host.run()
        #expect(status.dropped == 12)
        #expect(status.packets == 8)
        #expect(instrument.frames.withLock { $0.map(\.0.timestamp) } == (12..<20).map(Double.init))
    }
}
