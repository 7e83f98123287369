/// Plays a MIDI file or an event list sample-accurately, one audio block at a time.
///
/// Everything is computed in `init`: each event's absolute frame (through the tempo map, so tempo
/// changes are exact), the merged order of all tracks, and the output buffer of
/// `maximumEventsPerBlock` events. `nextBlock(frameCount:)` then only walks indices and fills that
/// buffer, so it never allocates, locks or throws and can run on the audio thread.
///
/// Timing: an event at time t seconds lands on frame `round(t × sampleRate)` from the song start;
/// inside a block its `frameOffset` is that frame minus the block's first frame.
///
/// Limits: a block carries at most `maximumEventsPerBlock` events. Events beyond that stay pending
/// and come out at offset 0 of the next block (late, not lost), counted in `lateEventCount`; only
/// when that happens right before a loop jump are they dropped (`droppedEventCount`).
/// Meta events are not output (tempo is already in the frame positions). F0 SysEx events are output
/// with `message == nil` and their payload in `sysExPayloads`; a SysEx split into F7 continuation
/// packets is joined and sent at its first packet's time. Other F7 escape events are parsed and their
/// messages (real-time, song position, tune request…) sent at the event's time.
///
/// Looping and seeking silence hanging notes: when playback jumps, a note-off is sent at the jump
/// for every note that was sounding (tracked per channel and key in a preallocated bit set).
///
/// Chasing: after a seek (when `chasesControllers`), the state the song has at the new position is
/// sent at the start of the next block, per channel: bank select (CC 0, 32), program, every other
/// controller's last value, pitch bend and channel pressure. Data entry, increment/decrement and
/// RPN/NRPN selection (CC 6, 38, 96–101) and channel mode messages (120–127) are not chased, since
/// replaying them out of order would write the wrong parameter. Loop jumps do not chase.
public final class MIDISequencer {
    public struct Event: Sendable, Hashable {
        /// Frame within the block, 0 ≤ offset < frameCount, non-decreasing through the block.
        public var frameOffset: Int
        /// The message; nil for a SysEx event (see `sysExIndex`).
        public var message: MIDIShortMessage?
        /// Index into `sysExPayloads` for a SysEx event, −1 otherwise.
        public var sysExIndex: Int
    }

    public let sampleRate: Double
    public let maximumEventsPerBlock: Int
    /// Tick ↔ seconds conversion the frames were computed with (nil for a seconds-based event list).
    public let tempoMap: MIDITempoMap?
    /// SysEx payloads (bytes between F0 and F7) referenced by `Event.sysExIndex`.
    public let sysExPayloads: [[UInt8]]
    /// The frame after the last event (or the last End of Track).
    public let endFrame: Int64

    private let frames: [Int64]
    private let messages: [MIDIShortMessage?]
    private let sysExIndices: [Int]
    private let output: UnsafeMutablePointer<Event>

    /// Playback position: frame of the next block's first sample.
    public private(set) var position: Int64 = 0
    private var nextIndex = 0
    /// A loop region in frames; playback jumps from its upper bound back to its lower bound.
    public private(set) var loop: Range<Int64>?
    /// Events delivered late (at offset 0 of a later block) because a block was full.
    public private(set) var lateEventCount = 0
    /// Events dropped because a block was full right before a loop jump.
    public private(set) var droppedEventCount = 0
    /// Sounding notes, bit (channel × 128 + note).
    private var activeNotes = [UInt64](repeating: 0, count: 32)
    private var activeNoteCount = 0
    private var pendingNoteOffs = false
    /// Send the song's controller state after a seek.
    public var chasesControllers = true
    /// Chase state: 16 × 128 controllers, then program, bend and pressure per channel (−1 = unset).
    private var chase = [Int16](repeating: -1, count: 16 * 128 + 48)
    private var chaseCursor = -1
    private static let chaseSlotsPerChannel = 133

    /// A sequencer over a Standard MIDI File.
    ///
    /// - Parameters:
    ///   - file: the parsed file (its tempo map and tracks).
    ///   - sampleRate: frames per second, > 0.
    ///   - maximumEventsPerBlock: output capacity per block (default 4096).
    ///   - sequence: for format 2 files, the track to play (format 0/1 play every track merged).
    public convenience init(file: MIDIFile, sampleRate: Double, maximumEventsPerBlock: Int = 4096, sequence: Int = 0) {
        let map = MIDITempoMap(file: file)
        let tracks = file.format == .multiSequence
            ? (file.tracks.indices.contains(sequence) ? [file.tracks[sequence]] : [])
            : file.tracks
        var items: [(tick: Int, order: Int, message: MIDIShortMessage?, sysEx: [UInt8]?)] = []
        var lastTick = 0
        var order = 0
        for track in tracks {
            var tick = 0
            // A SysEx split into an F0 packet and F7 continuation packets is joined and sent whole at
            // the first packet's time.
            var continuation: (tick: Int, order: Int, bytes: [UInt8])?
            for e in track.events {
                tick += e.delta
                lastTick = max(lastTick, tick)
                order += 1
                switch e.kind {
                case .message(let m):
                    if let s = m.shortMessage { items.append((tick, order, s, nil)) }
                    else if case .systemExclusive(let x) = m { items.append((tick, order, nil, x.payload)) }
                case .sysEx(let data):
                    if data.last == 0xF7 { items.append((tick, order, nil, Array(data.dropLast()))) }
                    else { continuation = (tick, order, data) }
                case .escape(let data):
                    if var c = continuation {
                        c.bytes += data
                        if data.last == 0xF7 {
                            items.append((c.tick, c.order, nil, Array(c.bytes.dropLast())))
                            continuation = nil
                        } else {
                            continuation = c
                        }
                    } else {
                        // Escaped messages (real-time, song position, tune request…) are sent as such.
                        var parser = MIDIStreamParser(maximumSysExLength: 0)
                        for b in data {
                            if case .message(let m)? = parser.push(b) { items.append((tick, order, m, nil)) }
                        }
                    }
                case .meta:
                    break
                }
            }
        }
        items.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        let timed = items.map { (seconds: map.seconds(atTick: $0.tick), message: $0.message, sysEx: $0.sysEx) }
        self.init(timed: timed, endSeconds: map.seconds(atTick: lastTick), sampleRate: sampleRate,
                  maximumEventsPerBlock: maximumEventsPerBlock, tempoMap: map)
    }

    /// A sequencer over messages at times in seconds (sorted here, stably).
    public convenience init(events: [(seconds: Double, message: MIDIMessage)], sampleRate: Double, maximumEventsPerBlock: Int = 4096) {
        let sorted = events.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
        let timed = sorted.map { e -> (seconds: Double, message: MIDIShortMessage?, sysEx: [UInt8]?) in
            if case .systemExclusive(let x) = e.message { return (e.seconds, nil, x.payload) }
            return (e.seconds, e.message.shortMessage, nil)
        }
        self.init(timed: timed, endSeconds: sorted.last?.seconds ?? 0, sampleRate: sampleRate,
                  maximumEventsPerBlock: maximumEventsPerBlock, tempoMap: nil)
    }

    private init(timed: [(seconds: Double, message: MIDIShortMessage?, sysEx: [UInt8]?)], endSeconds: Double,
                 sampleRate: Double, maximumEventsPerBlock: Int, tempoMap: MIDITempoMap?) {
        self.sampleRate = sampleRate > 0 && sampleRate.isFinite ? sampleRate : 48_000
        self.maximumEventsPerBlock = max(1, maximumEventsPerBlock)
        self.tempoMap = tempoMap
        var payloads: [[UInt8]] = []
        var frames: [Int64] = [], messages: [MIDIShortMessage?] = [], indices: [Int] = []
        frames.reserveCapacity(timed.count)
        for t in timed {
            frames.append(Self.frame(seconds: t.seconds, sampleRate: self.sampleRate))
            messages.append(t.message)
            if let p = t.sysEx { indices.append(payloads.count); payloads.append(p) } else { indices.append(-1) }
        }
        self.frames = frames
        self.messages = messages
        self.sysExIndices = indices
        self.sysExPayloads = payloads
        self.endFrame = max(frames.last.map { $0 + 1 } ?? 0, Self.frame(seconds: endSeconds, sampleRate: self.sampleRate))
        output = .allocate(capacity: self.maximumEventsPerBlock)
    }

    deinit { output.deinitialize(count: 0); output.deallocate() }

    private static func frame(seconds: Double, sampleRate: Double) -> Int64 {
        let f = (seconds * sampleRate).rounded()
        return f.isFinite ? Int64(max(0, min(f, 9e18))) : 0
    }

    /// Number of scheduled events (SysEx included, meta excluded).
    public var eventCount: Int { frames.count }

    /// True when playback has passed the last event and no loop is set.
    public var isFinished: Bool { loop == nil && position >= endFrame && nextIndex >= frames.count && !pendingNoteOffs }

    /// The events of the next `frameCount` frames, in order, then advances the position.
    ///
    /// The returned buffer is owned by the sequencer and valid until the next call. No allocation.
    public func nextBlock(frameCount: Int) -> UnsafeBufferPointer<Event> {
        var count = 0
        var remaining = Int64(max(0, frameCount))
        var base: Int64 = 0
        if pendingNoteOffs { emitNoteOffs(at: 0, count: &count) }
        if chaseCursor >= 0 { emitChase(count: &count) }
        while remaining > 0 {
            var segmentEnd = position + remaining
            if let loop, position < loop.upperBound { segmentEnd = min(segmentEnd, loop.upperBound) }
            while nextIndex < frames.count && frames[nextIndex] < segmentEnd {
                guard count < maximumEventsPerBlock else { break }
                if frames[nextIndex] < position { lateEventCount += 1 }
                let offset = base + max(0, frames[nextIndex] - position)
                emit(index: nextIndex, offset: Int(offset), count: &count)
                nextIndex += 1
            }
            let advanced = segmentEnd - position
            base += advanced
            remaining -= advanced
            position = segmentEnd
            if let loop, position == loop.upperBound {
                // Events still pending from an overflowing block cannot follow the jump.
                let pending = countPending(before: position)
                droppedEventCount += pending
                position = loop.lowerBound
                nextIndex = firstIndex(atOrAfter: loop.lowerBound)
                pendingNoteOffs = activeNoteCount > 0
                if remaining > 0 { emitNoteOffs(at: Int(base), count: &count) }
            }
        }
        return UnsafeBufferPointer(start: output, count: count)
    }

    private func countPending(before frame: Int64) -> Int {
        var i = nextIndex, n = 0
        while i < frames.count && frames[i] < frame { i += 1; n += 1 }
        return n
    }

    private func emit(index: Int, offset: Int, count: inout Int) {
        let message = messages[index]
        output[count] = Event(frameOffset: offset, message: message, sysExIndex: sysExIndices[index])
        count += 1
        guard let m = message, m.status < 0xA0 else { return }
        let bit = Int(m.status & 0x0F) * 128 + Int(m.data1)
        let mask: UInt64 = 1 << UInt64(bit & 63)
        let wasOn = activeNotes[bit >> 6] & mask != 0
        if m.status >= 0x90 && m.data2 > 0 {
            if !wasOn { activeNotes[bit >> 6] |= mask; activeNoteCount += 1 }
        } else if wasOn {
            activeNotes[bit >> 6] &= ~mask
            activeNoteCount -= 1
        }
    }

    private func emitNoteOffs(at offset: Int, count: inout Int) {
        pendingNoteOffs = false
        for word in 0..<32 where activeNotes[word] != 0 {
            var bits = activeNotes[word]
            while bits != 0 {
                guard count < maximumEventsPerBlock else { pendingNoteOffs = true; return }
                let b = bits.trailingZeroBitCount
                bits &= bits - 1
                let key = word * 64 + b
                let off = MIDIShortMessage(unchecked: 0x80 | UInt8(key >> 7), UInt8(key & 127), 0)
                output[count] = Event(frameOffset: offset, message: off, sysExIndex: -1)
                count += 1
                activeNotes[word] &= ~(1 << UInt64(b))
                activeNoteCount -= 1
            }
        }
    }

    private static func isChased(controller cc: Int) -> Bool {
        !(cc == 6 || cc == 38 || (96...101).contains(cc) || cc >= 120)
    }

    private func collectChaseState(upTo end: Int) {
        for i in chase.indices { chase[i] = -1 }
        for i in 0..<end {
            guard let m = messages[i] else { continue }
            let ch = Int(m.status & 0x0F)
            switch m.status & 0xF0 {
            case 0xB0 where Self.isChased(controller: Int(m.data1)): chase[ch * 128 + Int(m.data1)] = Int16(m.data2)
            case 0xC0: chase[2048 + ch] = Int16(m.data1)
            case 0xE0: chase[2064 + ch] = Int16(m.data2) << 7 | Int16(m.data1)
            case 0xD0: chase[2080 + ch] = Int16(m.data1)
            default: break
            }
        }
    }

    /// Emits chase messages from `chaseCursor` until done or the block is full (then resumes next block).
    private func emitChase(count: inout Int) {
        let total = 16 * Self.chaseSlotsPerChannel
        while chaseCursor < total {
            let ch = chaseCursor / Self.chaseSlotsPerChannel
            let slot = chaseCursor % Self.chaseSlotsPerChannel
            var message: MIDIShortMessage?
            let status = UInt8(ch)
            switch slot {
            case 0, 1:  // bank select MSB, LSB before the program change
                let cc = slot == 0 ? 0 : 32
                let v = chase[ch * 128 + cc]
                if v >= 0 { message = MIDIShortMessage(unchecked: 0xB0 | status, UInt8(cc), UInt8(v)) }
            case 2:
                let v = chase[2048 + ch]
                if v >= 0 { message = MIDIShortMessage(unchecked: 0xC0 | status, UInt8(v), 0) }
            case 3...130:
                let cc = slot - 3
                let v = chase[ch * 128 + cc]
                if cc != 0 && cc != 32 && v >= 0 { message = MIDIShortMessage(unchecked: 0xB0 | status, UInt8(cc), UInt8(v)) }
            case 131:
                let v = chase[2064 + ch]
                if v >= 0 { message = MIDIShortMessage(unchecked: 0xE0 | status, UInt8(v & 0x7F), UInt8(v >> 7)) }
            default:
                let v = chase[2080 + ch]
                if v >= 0 { message = MIDIShortMessage(unchecked: 0xD0 | status, UInt8(v), 0) }
            }
            if let message {
                guard count < maximumEventsPerBlock else { return }
                output[count] = Event(frameOffset: 0, message: message, sysExIndex: -1)
                count += 1
            }
            chaseCursor += 1
        }
        chaseCursor = -1
    }

    private func firstIndex(atOrAfter frame: Int64) -> Int {
        var lo = 0, hi = frames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[mid] < frame { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Moves playback to `frame` (≥ 0). Notes that were sounding get note-offs at the start of the
    /// next block. Not for the audio thread while another thread reads the output.
    public func seek(toFrame frame: Int64) {
        position = max(0, frame)
        nextIndex = firstIndex(atOrAfter: position)
        pendingNoteOffs = activeNoteCount > 0
        if chasesControllers {
            collectChaseState(upTo: nextIndex)
            chaseCursor = 0
        }
    }

    public func seek(toSeconds seconds: Double) { seek(toFrame: Self.frame(seconds: seconds, sampleRate: sampleRate)) }

    /// Moves playback to a tick (files only; ignored for seconds-based event lists).
    public func seek(toTick tick: Int) {
        guard let tempoMap else { return }
        seek(toSeconds: tempoMap.seconds(atTick: tick))
    }

    /// Loops playback over `frames` (nil or an empty range: no loop).
    public func setLoop(frames: Range<Int64>?) {
        guard let frames, !frames.isEmpty, frames.lowerBound >= 0 else { loop = nil; return }
        loop = frames
    }

    /// Loops over a tick range (files only), e.g. four bars: `0..<4 * 4 * ppqn`.
    public func setLoop(ticks: Range<Int>?) {
        guard let ticks, let tempoMap else { loop = nil; return }
        setLoop(frames: Self.frame(seconds: tempoMap.seconds(atTick: ticks.lowerBound), sampleRate: sampleRate)
                    ..< Self.frame(seconds: tempoMap.seconds(atTick: ticks.upperBound), sampleRate: sampleRate))
    }

    /// Frame of the `i`th scheduled event (for tests and displays).
    public func frame(ofEvent i: Int) -> Int64 { frames[i] }
}
