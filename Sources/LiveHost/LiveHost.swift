import Enobarbus
import Synchronization

/// Runs one instrument live from a datagram source until its ``LiveStop`` is requested: checks
/// senders against the allow-list, queues datagrams (bounded), decodes OSC, assembles one frame per
/// sender frame (Enobarbus' `OSCFrameAssembler`: closed at a bundle's end, a repeated key, a frame-ending
/// message, or quiet, which the loop flushes) and hands them to the instrument with their arrival times, advances it on the clock, snapshots a
/// status, and on stop finishes the instrument and closes the source.
///
/// The CLI and the studio drive it the same way:
///
///     let host = LiveHost(source: udp, instrument: hecate, stop: stop)
///     let final = try host.run { status in print(status.countersLine) }
public final class LiveHost: @unchecked Sendable {
    public let source: any DatagramSource
    public let instrument: any LiveInstrument
    public let stop: LiveStop
    public let options: LiveHostOptions
    private let inbox: LiveInbox
    private let counters = Mutex(LiveHostStatus())
    private let clock: @Sendable () -> Double

    /// - Parameter clock: seconds on the same clock as the source's arrival times (default `MonotonicClock.now`).
    public init(source: any DatagramSource, instrument: any LiveInstrument, stop: LiveStop,
                options: LiveHostOptions = LiveHostOptions(), clock: @escaping @Sendable () -> Double = { MonotonicClock.now() }) {
        self.source = source
        self.instrument = instrument
        self.stop = stop
        self.options = options
        self.clock = clock
        inbox = LiveInbox(capacity: options.inboxCapacity)
    }

    /// The latest snapshot; any thread.
    public var status: LiveHostStatus { counters.withLock { $0 } }

    private let started = Mutex(false)

    /// Starts the source (binds the socket), so that a taken port is an error before anything else
    /// starts; ``run(onStatus:)`` calls it when it was not called. Throws when the source cannot start.
    public func start() throws {
        guard started.withLock({ s in defer { s = true }; return !s }) else { return }
        let allow = options.allow
        let inbox = self.inbox
        try source.start { [self] datagram in
            guard allow.accepts(datagram.sender.address) else {
                counters.withLock {
                    $0.refused += 1
                    $0.lastRefusedSender = datagram.sender.description
                }
                return
            }
            inbox.push(datagram)
        }
    }

    /// Plays until the stop is requested; returns the final status. Throws when the source cannot start.
    public func run(onStatus: (LiveHostStatus) -> Void = { _ in }) throws -> LiveHostStatus {
        try start()
        let inbox = self.inbox
        stop.onRequest { inbox.wake() }
        var assembler = options.assembler
        let start = clock()
        var nextStatus = start + options.statusInterval
        while !stop.isRequested {
            // An open sender frame closes after the assembler's quiet interval: wake for it, not a tick later.
            let wait = assembler.hasOpenFrames ? min(options.tick, assembler.quietInterval) : options.tick
            handle(inbox.take(waitingUpTo: wait), &assembler)
            let now = clock()
            deliverClosedByQuiet(assembler.flush(now: now))
            instrument.advance(to: now)
            if now >= nextStatus {
                nextStatus = now + options.statusInterval
                onStatus(snapshot(assembler, now: now, start: start, instrumentLine: instrument.statusLine(at: now)))
            }
        }
        source.close()
        handle(inbox.take(waitingUpTo: 0), &assembler)
        let end = clock()
        deliverClosedByQuiet(assembler.flush(now: .infinity))
        instrument.finish(at: end)
        return snapshot(assembler, now: end, start: start, instrumentLine: instrument.statusLine(at: end))
    }

    private func handle(_ datagrams: [Datagram], _ assembler: inout OSCFrameAssembler) {
        guard !datagrams.isEmpty else { return }
        var decoded = 0, malformed = 0, frameCount = 0
        var lastError: String?
        for datagram in datagrams {
            let packet: OSCPacket
            do { packet = try OSCDecoder.decode(datagram.bytes) } catch {
                malformed += 1
                lastError = "\(error) (from \(datagram.sender))"
                continue
            }
            decoded += 1
            let frames = assembler.ingest(packet, at: datagram.arrival)
            if !frames.isEmpty {
                frameCount += frames.count
                instrument.receive(frames, at: datagram.arrival)
            }
        }
        counters.withLock {
            $0.packets += decoded
            $0.malformed += malformed
            $0.frames += frameCount
            if let lastError { $0.lastMalformed = lastError }
        }
    }

    /// Frames closed by quiet go to the instrument with their own arrival time (the latest message's),
    /// so their timing is that of the input, not of the flush.
    private func deliverClosedByQuiet(_ frames: [TrackingFrame]) {
        guard !frames.isEmpty else { return }
        counters.withLock { $0.frames += frames.count }
        var start = 0
        while start < frames.count {
            var end = start + 1
            while end < frames.count && frames[end].timestamp == frames[start].timestamp { end += 1 }
            instrument.receive(Array(frames[start..<end]), at: frames[start].timestamp)
            start = end
        }
    }

    private func snapshot(_ assembler: OSCFrameAssembler, now: Double, start: Double, instrumentLine: String?) -> LiveHostStatus {
        let dropped = inbox.droppedCount
        return counters.withLock {
            $0.dropped = dropped
            $0.acceptedMessages = assembler.acceptedMessages
            $0.rejectedMessages = assembler.rejectedMessages
            $0.ignoredMessages = assembler.ignoredMessages
            $0.lastRejection = assembler.lastRejection
            $0.instrumentLine = instrumentLine ?? $0.instrumentLine
            $0.elapsed = now - start
            return $0
        }
    }
}
