extension MIDIMessage {
    /// Bytes on the wire, including F0/F7 for SysEx.
    public var encodedCount: Int {
        if case .systemExclusive(let s) = self { return s.encodedCount }
        return shortMessage!.count
    }

    /// The wire bytes (allocates; use `encode(into:)` on the real-time path).
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        MIDIMessage.append(self, to: &out, runningStatus: nil)
        return out
    }

    /// Writes the message into `buffer` without allocating. Returns the number of bytes written,
    /// or 0 when the buffer is too small (nothing is written then).
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let short = shortMessage { return short.encode(into: buffer) }
        guard case .systemExclusive(let s) = self, buffer.count >= s.encodedCount else { return 0 }
        buffer[0] = 0xF0
        for (i, b) in s.payload.enumerated() { buffer[1 + i] = b }
        buffer[s.payload.count + 1] = 0xF7
        return s.encodedCount
    }

    /// Encodes a sequence of messages as one byte stream.
    ///
    /// With `runningStatus`, a channel message whose status equals the previous channel status is
    /// sent without its status byte. System common messages and SysEx cancel running status (the
    /// receiver forgets it); real-time messages leave it alone, as the MIDI 1.0 specification says.
    public static func encode<S: Sequence<MIDIMessage>>(_ messages: S, runningStatus: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        var status: UInt8? = runningStatus ? 0 : nil
        for m in messages { append(m, to: &out, runningStatus: &status) }
        return out
    }

    /// Encodes one message into a fixed buffer, continuing a running-status stream: `runningStatus`
    /// holds the last channel status sent (0 when none) and is updated. No allocation.
    /// Returns the bytes written, or 0 when the buffer is too small (nothing is written, state kept).
    public func encode(into buffer: UnsafeMutableRawBufferPointer, runningStatus: inout UInt8) -> Int {
        guard let short = shortMessage else {
            let n = encode(into: buffer)
            if n > 0 { runningStatus = 0 }
            return n
        }
        if short.isChannelMessage, short.status == runningStatus {
            let n = short.count - 1
            guard buffer.count >= n else { return 0 }
            if n > 0 { buffer[0] = short.data1 }
            if n > 1 { buffer[1] = short.data2 }
            return n
        }
        let n = short.encode(into: buffer)
        guard n > 0 else { return 0 }
        if short.isChannelMessage { runningStatus = short.status } else if short.status < 0xF8 { runningStatus = 0 }
        return n
    }

    static func append(_ m: MIDIMessage, to out: inout [UInt8], runningStatus: inout UInt8?) {
        guard let short = m.shortMessage else {
            if case .systemExclusive(let s) = m {
                out.append(0xF0)
                out += s.payload
                out.append(0xF7)
            }
            if runningStatus != nil { runningStatus = 0 }
            return
        }
        let n = short.count
        if short.isChannelMessage, let rs = runningStatus, rs == short.status {
            // status omitted
        } else {
            out.append(short.status)
        }
        if n > 1 { out.append(short.data1) }
        if n > 2 { out.append(short.data2) }
        if runningStatus != nil {
            if short.isChannelMessage { runningStatus = short.status } else if short.status < 0xF8 { runningStatus = 0 }
        }
    }

    private static func append(_ m: MIDIMessage, to out: inout [UInt8], runningStatus: UInt8?) {
        var rs = runningStatus
        append(m, to: &out, runningStatus: &rs)
    }
}

extension MIDIMessage {
    /// Decodes exactly one complete message (status byte first; SysEx from F0 to F7).
    public init(bytes: [UInt8]) throws(MIDIDecodingError) {
        let all = try MIDIMessage.decode(bytes)
        guard let first = all.first else { throw .empty }
        guard all.count == 1 else { throw .trailingBytes(count: bytes.count - first.encodedCount) }
        self = first
    }

    /// Decodes a complete byte stream strictly: running status and interleaved real-time bytes
    /// are accepted; stray data, undefined status bytes, an interrupted message or a cut-off tail
    /// are errors (the live `MIDIStreamParser` skips and counts them instead).
    public static func decode(_ bytes: [UInt8]) throws(MIDIDecodingError) -> [MIDIMessage] {
        guard !bytes.isEmpty else { throw .empty }
        var parser = MIDIStreamParser(maximumSysExLength: bytes.count)
        var out: [MIDIMessage] = []
        for (i, b) in bytes.enumerated() {
            switch parser.push(b) {
            case .none: break
            case .message(let m): out.append(MIDIMessage(m))
            case .systemExclusive: out.append(.systemExclusive(MIDISystemExclusive(unchecked: parser.sysExPayload)))
            case .error(let e): throw .stream(e, offset: i)
            }
        }
        if parser.isInSysEx { throw .unterminatedSystemExclusive }
        if let pending = parser.pendingMessage {
            throw .incompleteMessage(status: pending.status,
                                     expected: MIDIShortMessage.dataByteCount(forStatus: pending.status),
                                     found: pending.received)
        }
        return out
    }
}
