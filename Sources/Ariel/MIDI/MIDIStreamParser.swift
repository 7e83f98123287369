/// Turns a raw MIDI 1.0 byte stream (serial, USB, ALSA raw MIDI, JACK) into messages.
///
/// Handles running status, real-time bytes interleaved anywhere (between data bytes and inside
/// SysEx, where they are delivered at once without disturbing the message around them), SysEx up to
/// `maximumSysExLength` payload bytes, and junk: stray data bytes, undefined status bytes (F4, F5,
/// F9, FD), interrupted messages and oversized SysEx are skipped and counted, never fatal.
///
/// Allocation: the SysEx buffer is allocated once in `init`; `push(_:)` never allocates. A completed
/// SysEx is reported as `.systemExclusive` and its payload (the bytes between F0 and F7) can be read
/// without copying through `withSysExPayload(_:)` until the next `push`; `sysExPayload` and the
/// `parse(_:onMessage:)` convenience copy it into a new array (one allocation per SysEx message).
public struct MIDIStreamParser: Sendable {
    /// What one byte produced.
    public enum Event: Sendable, Hashable {
        /// A complete message of up to three bytes (including real-time bytes).
        case message(MIDIShortMessage)
        /// A complete SysEx; read it with `withSysExPayload` or `sysExPayload` before the next push.
        case systemExclusive
        /// A problem was detected and skipped (also counted in `statistics`).
        case error(MIDIStreamError)
    }

    /// Running counts since `init` or `reset()`.
    public struct Statistics: Sendable, Hashable {
        public var messages = 0
        public var sysExMessages = 0
        public var strayDataBytes = 0
        public var undefinedStatusBytes = 0
        public var incompleteMessages = 0
        public var sysExDroppedTooLong = 0
        public var sysExInterrupted = 0
        public var unexpectedEndOfExclusive = 0

        /// Every error counted.
        public var errors: Int {
            strayDataBytes + undefinedStatusBytes + incompleteMessages + sysExDroppedTooLong
                + sysExInterrupted + unexpectedEndOfExclusive
        }

        mutating func count(_ e: MIDIStreamError) {
            switch e {
            case .strayDataByte: strayDataBytes += 1
            case .undefinedStatus: undefinedStatusBytes += 1
            case .incompleteMessage: incompleteMessages += 1
            case .sysExTooLong: sysExDroppedTooLong += 1
            case .sysExInterrupted: sysExInterrupted += 1
            case .unexpectedEndOfExclusive: unexpectedEndOfExclusive += 1
            }
        }
    }

    /// Longest SysEx payload kept (bytes between F0 and F7); longer ones are dropped and counted.
    public let maximumSysExLength: Int
    public private(set) var statistics = Statistics()
    /// The most recent error, kept until `reset()`.
    public private(set) var lastError: MIDIStreamError?

    private var sysExBuffer: [UInt8]
    private var sysExCount = 0
    private var sysExOverflowed = false
    public private(set) var isInSysEx = false

    /// The status byte data bytes are currently collected for (0 when none).
    private var status: UInt8 = 0
    private var expected = 0
    private var received = 0
    private var data1: UInt8 = 0
    /// True from a status byte until its first message completes (running status is not "pending").
    private var freshStatus = false

    /// - Parameter maximumSysExLength: payload bytes kept per SysEx (≥ 0); the buffer is allocated here.
    public init(maximumSysExLength: Int = 4096) {
        self.maximumSysExLength = max(0, maximumSysExLength)
        sysExBuffer = [UInt8](repeating: 0, count: self.maximumSysExLength)
    }

    /// Forgets running status, any partial message and the statistics.
    public mutating func reset() {
        status = 0; expected = 0; received = 0; freshStatus = false
        isInSysEx = false; sysExCount = 0; sysExOverflowed = false
        statistics = Statistics()
        lastError = nil
    }

    /// A message that has its status but is still waiting for data bytes.
    public var pendingMessage: (status: UInt8, received: Int)? {
        status != 0 && (received > 0 || freshStatus) ? (status, received) : nil
    }

    /// Feeds one byte. Returns what it completed, or nil.
    ///
    /// A byte yields at most one event: when a status byte both cuts off an earlier message and
    /// completes a new one (F6 Tune Request), the message is returned and the error only counted.
    public mutating func push(_ byte: UInt8) -> Event? {
        if byte >= 0xF8 {
            // Real-time: never disturbs running status, partial messages or SysEx.
            if byte == 0xF9 || byte == 0xFD { return fail(.undefinedStatus(byte)) }
            return deliver(MIDIShortMessage(unchecked: byte, 0, 0))
        }
        if byte < 0x80 {
            if isInSysEx {
                if sysExCount < maximumSysExLength {
                    sysExBuffer[sysExCount] = byte
                    sysExCount += 1
                } else {
                    sysExOverflowed = true
                }
                return nil
            }
            guard status != 0 else { return fail(.strayDataByte(byte)) }
            if received == 0 && expected >= 1 {
                data1 = byte
                received = 1
                if expected == 1 { return complete() }
                return nil
            }
            received = 2
            return complete(data2: byte)
        }

        // A status byte 0x80…0xF7 ends whatever was in progress.
        var interruption: MIDIStreamError?
        if isInSysEx {
            isInSysEx = false
            if byte == 0xF7 {
                if sysExOverflowed { return fail(.sysExTooLong(maximum: maximumSysExLength)) }
                statistics.sysExMessages += 1
                return .systemExclusive
            }
            interruption = .sysExInterrupted(by: byte)
        } else if status != 0 && (received > 0 || freshStatus) {
            interruption = .incompleteMessage(status: status, received: received)
        }
        if let interruption { record(interruption) }
        freshStatus = false

        switch byte {
        case 0x80...0xEF:
            freshStatus = true
            status = byte
            expected = MIDIShortMessage.dataByteCount(forStatus: byte)
            received = 0
            return interruption.map { .error($0) }
        case 0xF0:
            status = 0
            isInSysEx = true
            sysExCount = 0
            sysExOverflowed = false
            return interruption.map { .error($0) }
        case 0xF7:
            status = 0
            return fail(.unexpectedEndOfExclusive)
        case 0xF4, 0xF5:
            status = 0
            return fail(.undefinedStatus(byte))
        case 0xF6:
            status = 0
            return deliver(MIDIShortMessage(unchecked: 0xF6, 0, 0))
        default:  // F1, F2, F3: system common with data; cancels running status once complete
            freshStatus = true
            status = byte
            expected = MIDIShortMessage.dataByteCount(forStatus: byte)
            received = 0
            return interruption.map { .error($0) }
        }
    }

    /// Calls `body` with the payload of the SysEx just reported (bytes between F0 and F7),
    /// without copying. Valid until the next `push`.
    public func withSysExPayload<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try sysExBuffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<sysExCount])) }
    }

    /// A copy of the payload of the SysEx just reported (allocates).
    public var sysExPayload: [UInt8] { Array(sysExBuffer[0..<sysExCount]) }

    /// Convenience for non-real-time code: feeds `bytes` and calls `onMessage` for every complete
    /// message. Errors are counted in `statistics` and skipped. Allocates once per SysEx only.
    public mutating func parse<S: Sequence<UInt8>>(_ bytes: S, onMessage: (MIDIMessage) -> Void) {
        for b in bytes {
            switch push(b) {
            case .message(let m)?: onMessage(MIDIMessage(m))
            case .systemExclusive?: onMessage(.systemExclusive(MIDISystemExclusive(unchecked: sysExPayload)))
            default: break
            }
        }
    }

    private mutating func complete(data2: UInt8 = 0) -> Event {
        let m = MIDIShortMessage(unchecked: status, data1, data2)
        received = 0
        freshStatus = false
        if status >= 0xF0 { status = 0 }  // system common cancels running status
        return deliver(m)
    }

    private mutating func deliver(_ m: MIDIShortMessage) -> Event {
        statistics.messages += 1
        return .message(m)
    }

    private mutating func record(_ e: MIDIStreamError) {
        statistics.count(e)
        lastError = e
    }

    private mutating func fail(_ e: MIDIStreamError) -> Event {
        record(e)
        return .error(e)
    }
}
