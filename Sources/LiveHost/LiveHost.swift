import Enobarbus
import Synchronization

/// Runs one instrument live from a datagram source until its ``LiveStop`` is requested: checks
/// senders against the allow-list, queues datagrams (bounded), detects each datagram's format and
/// decodes it (Enobarbus' `SenderDatagramDecoder`: iFacialMocap text, Live Link Face binary, FaceOSC,
/// mpmocap, Visage and Wekinator OSC; malformed ones are counted, never fatal), assembles the rest of
/// the OSC one frame per sender frame (Enobarbus' `OSCFrameAssembler`: closed at a bundle's end, a
/// repeated key, a frame-ending message, or quiet, which the loop flushes) and hands the frames to the
/// instrument with their arrival times and sender, advances it on the clock, snapshots a status, and
/// on stop finishes the instrument and closes the source. Wekinator's outputs go to the
/// instrument as controls; with a sink, the host also sends Wekinator feature vectors and a phone
/// app's handshake (``LiveHostOptions``).
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
    /// Where the host's own datagrams go (Wekinator vectors, a handshake); nil sends nothing.
    public let sink: (any DatagramSink)?
    private let inbox: LiveInbox
    private let counters = Mutex(LiveHostStatus())
    private let clock: @Sendable () -> Double

    /// - Parameter clock: seconds on the same clock as the source's arrival times (default `MonotonicClock.now`).
    public init(source: any DatagramSource, instrument: any LiveInstrument, stop: LiveStop,
                options: LiveHostOptions = LiveHostOptions(), sink: (any DatagramSink)? = nil,
                clock: @escaping @Sendable () -> Double = { MonotonicClock.now() }) {
        self.source = source
        self.sink = sink
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
            guard datagram.sender.isInProcess || allow.accepts(datagram.sender.address) else {
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
        var input = Input(assembler: options.assembler, senders: options.senders)
        let start = clock()
        var nextStatus = start + options.statusInterval
        var nextHandshake = start
        var lastDatagram = start
        while !stop.isRequested {
            // An open sender frame closes after the assembler's quiet interval: wake for it, not a tick later.
            let wait = input.assembler.hasOpenFrames ? min(options.tick, input.assembler.quietInterval)
                : clock() - lastDatagram >= options.restAfter && instrument.canRest ? options.restingTick : options.tick
            let datagrams = inbox.take(waitingUpTo: wait)
            let now = clock()
            if !datagrams.isEmpty { lastDatagram = now }
            handle(datagrams, &input)
            flush(&input, now: now)  // sender frames closed by quiet
            instrument.advance(to: now)
            sendOwnDatagrams(&input, now: now, nextHandshake: &nextHandshake)
            if now >= nextStatus {
                nextStatus = now + options.statusInterval
                onStatus(snapshot(input, now: now, start: start, instrumentLine: instrument.statusLine(at: now)))
            }
        }
        source.close()
        handle(inbox.take(waitingUpTo: 0), &input)
        let end = clock()
        flush(&input, now: .infinity)
        instrument.finish(at: end)
        return snapshot(input, now: end, start: start, instrumentLine: instrument.statusLine(at: end))
    }

    /// The loop's decoding state: both decoders, and what the Wekinator feed has seen.
    struct Input {
        var assembler: OSCFrameAssembler
        var senders: SenderDatagramDecoder
        var latestFace: FaceFrame?
        var latestHand: HandFrame?
        var featuresChanged = false
        var lastVector = -Double.infinity
        var handshakeAnswered = false
    }

    private func handle(_ datagrams: [Datagram], _ input: inout Input) {
        guard !datagrams.isEmpty else { return }
        var decoded = 0, malformed = 0
        var lastError: String?
        for datagram in datagrams {
            let decoding: SenderDecoding
            do { decoding = try input.senders.decode(datagram.bytes, at: datagram.arrival) } catch {
                malformed += 1
                lastError = "\(error) (from \(datagram.sender))"
                continue
            }
            decoded += 1
            deliver(decoding.frames, from: decoding.sender, at: datagram.arrival, &input)
            if decoding.wekinatorOutputsChanged {
                instrument.receiveControls(input.senders.wekinator.outputs, at: datagram.arrival)
            }
            if let osc = decoding.remainingOSC {
                let before = input.assembler.framesByFormat
                let frames = input.assembler.ingest(osc, at: datagram.arrival)
                deliver(frames, from: Self.closer(before, input.assembler.framesByFormat), at: datagram.arrival, &input)
            }
        }
        counters.withLock {
            $0.packets += decoded
            $0.malformed += malformed
            if let lastError { $0.lastMalformed = lastError }
        }
    }

    /// The sender whose frames the assembler closed between two counts, when exactly one did.
    static func closer(_ before: [OSCInputFormat: Int], _ after: [OSCInputFormat: Int]) -> InputSender? {
        let changed = after.filter { before[$0.key] != $0.value }
        return changed.count == 1 ? changed.first.map { InputSender($0.key) } : nil
    }

    /// Frames closed by quiet go to the instrument with their own arrival time (the latest message's),
    /// so their timing is that of the input, not of the flush.
    private func flush(_ input: inout Input, now: Double) {
        let before = input.assembler.framesByFormat
        let frames = input.assembler.flush(now: now)
        guard !frames.isEmpty else { return }
        let sender = Self.closer(before, input.assembler.framesByFormat)
        var start = 0
        while start < frames.count {
            var end = start + 1
            while end < frames.count && frames[end].timestamp == frames[start].timestamp { end += 1 }
            deliver(Array(frames[start..<end]), from: sender, at: frames[start].timestamp, &input)
            start = end
        }
    }

    private func deliver(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double, _ input: inout Input) {
        guard !frames.isEmpty else { return }
        counters.withLock { $0.frames += frames.count }
        if options.wekinator != nil {
            let slot = options.wekinator?.encoder.handSlot
            for frame in frames {
                switch frame {
                case .face(let f): input.latestFace = f; input.featuresChanged = true
                case .hand(let h) where h.slot == slot: input.latestHand = h; input.featuresChanged = true
                case .ended(.face, _): input.latestFace = nil; input.featuresChanged = true
                case .ended(let id, _) where slot.map({ id == .hand($0) }) ?? false: input.latestHand = nil; input.featuresChanged = true
                default: break
                }
            }
        }
        instrument.receive(frames, from: sender, at: time)
    }

    /// Wekinator's next feature vector when a face or hand changed (rate-limited), and the phone's
    /// handshake until the phone answers.
    private func sendOwnDatagrams(_ input: inout Input, now: Double, nextHandshake: inout Double) {
        guard let sink else { return }
        if let feed = options.wekinator, input.featuresChanged, now - input.lastVector >= 1 / feed.maximumRate {
            input.featuresChanged = false
            input.lastVector = now
            let sent = sink.send(feed.encoder.datagram(face: input.latestFace, hand: input.latestHand), to: feed.destination)
            if sent { counters.withLock { $0.wekinatorVectorsSent += 1 } }
        }
        if let handshake = options.handshake, !input.handshakeAnswered {
            if (input.senders.acceptedBySender[handshake.answeredBy] ?? 0) > 0 {
                input.handshakeAnswered = true
            } else if now >= nextHandshake {
                nextHandshake = now + handshake.repeatInterval
                if sink.send(handshake.payload, to: handshake.destination) { counters.withLock { $0.handshakesSent += 1 } }
            }
        }
    }

    private func snapshot(_ input: Input, now: Double, start: Double, instrumentLine: String?) -> LiveHostStatus {
        let dropped = inbox.droppedCount
        let assembler = input.assembler, senders = input.senders
        var bySender = senders.acceptedBySender
        for (format, count) in assembler.acceptedByFormat { bySender[InputSender(format), default: 0] += count }
        return counters.withLock {
            $0.dropped = dropped
            $0.acceptedMessages = assembler.acceptedMessages + senders.acceptedBySender.filter { $0.key != .iFacialMocap && $0.key != .liveLinkFace }.values.reduce(0, +)
            $0.rejectedMessages = assembler.rejectedMessages + senders.rejectedMessages
            $0.ignoredMessages = assembler.ignoredMessages
            $0.lastRejection = assembler.lastRejection ?? (senders.rejectedMessages > 0 ? senders.lastRejection : nil)
            $0.senders = bySender
            $0.wekinatorOutputs = senders.wekinator.outputs
            $0.instrumentLine = instrumentLine ?? $0.instrumentLine
            $0.elapsed = now - start
            return $0
        }
    }
}
