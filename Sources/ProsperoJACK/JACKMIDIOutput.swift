/// The MIDI a handler sends in the current period, each message at a frame offset.
///
/// Messages are staged in preallocated memory and written to Prospero's JACK MIDI
/// output port after `process` returns, sorted by frame (stable: equal frames keep
/// the order they were sent in), so a handler may send voices in any order.
/// Nothing here allocates, locks or blocks; a message that does not fit, or whose
/// frame lies outside the period, is dropped and counted in
/// ``JACKClientStatistics/midiOutputDropped``.
///
/// The output remembers which notes it has switched on, so that
/// ``releaseAllSoundingNotes(atFrame:)`` can end every one of them when playing stops.
public struct JACKMIDIOutput {
    @usableFromInline unowned(unsafe) let storage: JACKMIDIOutputStorage
    /// Frames in the current period; valid frame offsets are 0 ..< frameCount.
    public let frameCount: Int
    @usableFromInline var stagedCount = 0
    @usableFromInline var stagedBytes = 0
    @usableFromInline var dropped = 0

    /// Messages dropped in this period (buffer full or frame out of range).
    @inlinable public var droppedCount: Int { dropped }

    @inlinable
    init(storage: JACKMIDIOutputStorage, frameCount: Int) {
        self.storage = storage
        self.frameCount = frameCount
    }

    /// Messages staged so far in this period.
    @inlinable public var count: Int { stagedCount }

    /// Sends a three-byte message (note on/off, CC, pitch bend, poly pressure) at `frame` (0 ..< frameCount).
    /// Returns false when the message was dropped.
    @inlinable @discardableResult
    public mutating func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, atFrame frame: Int) -> Bool {
        guard let at = reserve(size: 3, frame: frame) else { return false }
        storage.bytes[at] = status
        storage.bytes[at + 1] = data1
        storage.bytes[at + 2] = data2
        track(status, data1, data2)
        return true
    }

    /// Sends a two-byte message (program change, channel pressure, MTC quarter frame) at `frame`.
    @inlinable @discardableResult
    public mutating func send(_ status: UInt8, _ data1: UInt8, atFrame frame: Int) -> Bool {
        guard let at = reserve(size: 2, frame: frame) else { return false }
        storage.bytes[at] = status
        storage.bytes[at + 1] = data1
        track(status, data1, 0)
        return true
    }

    /// Sends a one-byte message (clock 0xF8, start 0xFA, continue 0xFB, stop 0xFC) at `frame`.
    @inlinable @discardableResult
    public mutating func send(_ status: UInt8, atFrame frame: Int) -> Bool {
        guard let at = reserve(size: 1, frame: frame) else { return false }
        storage.bytes[at] = status
        return true
    }

    /// Sends a complete message of any length (SysEx F0 … F7) at `frame`.
    @inlinable @discardableResult
    public mutating func send(bytes message: UnsafeBufferPointer<UInt8>, atFrame frame: Int) -> Bool {
        guard !message.isEmpty, let base = message.baseAddress,
              let at = reserve(size: message.count, frame: frame) else { return false }
        (storage.bytes + at).update(from: base, count: message.count)
        track(message[0], message.count > 1 ? message[1] : 0, message.count > 2 ? message[2] : 0)
        return true
    }

    /// Sends a note-off (velocity 64) for every note this output switched on and has not
    /// switched off, then All Notes Off (CC 123) on every channel used since its last CC 123,
    /// all at `frame`. Call when playing stops or input is lost.
    @inlinable
    public mutating func releaseAllSoundingNotes(atFrame frame: Int) {
        for channel in 0..<16 {
            for word in 0..<2 {
                var bits = storage.sounding[channel * 2 + word]
                while bits != 0 {
                    let note = word * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    send(0x80 | UInt8(channel), UInt8(note), 64, atFrame: frame)
                }
            }
            if storage.sounding[JACKMIDIOutputStorage.usedChannelsWord] & (1 << UInt64(channel)) != 0 {
                send(0xB0 | UInt8(channel), 123, 0, atFrame: frame)
            }
        }
    }

    /// Notes switched on and not yet off, over all channels.
    public var soundingNoteCount: Int {
        (0..<32).reduce(0) { $0 + storage.sounding[$1].nonzeroBitCount }
    }

    @inlinable
    mutating func reserve(size: Int, frame: Int) -> Int? {
        guard frame >= 0, frame < frameCount, stagedCount < storage.eventCapacity,
              stagedBytes + size <= storage.byteCapacity else {
            dropped += 1
            return nil
        }
        let at = stagedBytes
        storage.events[stagedCount] = .init(frame: UInt32(frame), offset: UInt32(at), size: UInt32(size))
        stagedCount += 1
        stagedBytes += size
        return at
    }

    /// Keeps the sounding-note set and used-channel mask in step with what was sent.
    @inlinable
    func track(_ status: UInt8, _ data1: UInt8, _ data2: UInt8) {
        guard status >= 0x80, status < 0xF0 else { return }
        let channel = Int(status & 0x0F)
        let kind = status & 0xF0
        let word = channel * 2 + Int(data1 >> 6) & 1
        let bit = UInt64(1) << UInt64(data1 & 63)
        if kind == 0x90 && data2 > 0 {
            storage.sounding[word] |= bit
        } else if kind == 0x80 || kind == 0x90 {
            storage.sounding[word] &= ~bit
        }
        if kind == 0xB0 && (data1 == 123 || data1 == 120) {
            storage.sounding[channel * 2] = 0
            storage.sounding[channel * 2 + 1] = 0
            if data1 == 123 {
                storage.sounding[JACKMIDIOutputStorage.usedChannelsWord] &= ~(1 << UInt64(channel))
                return
            }
        }
        storage.sounding[JACKMIDIOutputStorage.usedChannelsWord] |= 1 << UInt64(channel)
    }

    /// Sorts the staged messages by frame, keeping send order for equal frames, and hands
    /// each one to `write(frame, bytes)`; returns how many `write` refused.
    @inlinable
    package func flush(_ write: (UInt32, UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
        var events = storage.events
        // Usually already in frame order (one linear check); otherwise a stable bottom-up merge
        // sort through the preallocated scratch space: O(n log n) in the worst case, never O(n²).
        var ordered = true
        if stagedCount > 1 {
            for i in 1..<stagedCount where events[i - 1].frame > events[i].frame {
                ordered = false
                break
            }
        }
        if !ordered {
            var source = events
            var target = storage.scratch
            var width = 1
            while width < stagedCount {
                var start = 0
                while start < stagedCount {
                    let middle = min(start + width, stagedCount)
                    let end = min(start + 2 * width, stagedCount)
                    var i = start, j = middle, k = start
                    while i < middle && j < end {
                        // `<=` keeps send order among equal frames.
                        if source[i].frame <= source[j].frame { target[k] = source[i]; i += 1 } else { target[k] = source[j]; j += 1 }
                        k += 1
                    }
                    while i < middle { target[k] = source[i]; i += 1; k += 1 }
                    while j < end { target[k] = source[j]; j += 1; k += 1 }
                    start = end
                }
                swap(&source, &target)
                width *= 2
            }
            events = source
        }
        var refused = 0
        for i in 0..<stagedCount {
            let event = events[i]
            let bytes = UnsafeBufferPointer(start: storage.bytes + Int(event.offset), count: Int(event.size))
            if !write(event.frame, bytes) { refused += 1 }
        }
        return refused
    }
}
