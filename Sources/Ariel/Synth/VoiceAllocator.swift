/// Chooses which voice plays each new note, with fixed storage and no allocation.
///
/// The order of preference is: a voice already sounding the same note on the same channel
/// (restarted in place, so repeated notes never stack); a free voice; the voice released longest
/// ago; the oldest held voice. A voice taken from a sounding note is reported as stolen, and the
/// caller fades it out over a few milliseconds before the new note starts, instead of cutting it.
///
/// Voices are identified by index 0..<capacity. `noteOff` releases every voice holding that note on
/// that channel; the caller tells the allocator when a voice's release has finished (`voiceBecameIdle`).
public struct VoiceAllocator: Sendable {
    /// What a voice is doing, from the allocator's point of view.
    public enum VoiceState: UInt8, Sendable {
        case free, held, released
    }

    /// The decision for one note-on.
    public struct Assignment: Sendable, Equatable {
        /// The voice that will play the note.
        public var voice: Int
        /// The note the voice was playing when it was taken, if it was sounding (held or releasing).
        public var stolenNote: UInt8?
        /// True when the voice already played this very note and is simply restarted.
        public var isRetrigger: Bool

        public init(voice: Int, stolenNote: UInt8?, isRetrigger: Bool) {
            self.voice = voice
            self.stolenNote = stolenNote
            self.isRetrigger = isRetrigger
        }
    }

    public let capacity: Int
    /// How many voices may sound at once, 1…capacity; lowering it does not cut sounding voices
    /// until new notes need them.
    public private(set) var polyphony: Int

    private var states: [VoiceState]
    private var notes: [UInt8]
    private var channels: [UInt8]
    /// Monotonic stamps: when the voice was started (held) or released.
    private var stamps: [UInt64]
    private var clock: UInt64 = 0

    /// - Parameter capacity: the number of voices, 1…256. Storage is allocated here and never again.
    public init(capacity: Int) {
        precondition((1...256).contains(capacity), "voice capacity must be 1…256")
        self.capacity = capacity
        polyphony = capacity
        states = Array(repeating: .free, count: capacity)
        notes = Array(repeating: 0, count: capacity)
        channels = Array(repeating: 0, count: capacity)
        stamps = Array(repeating: 0, count: capacity)
    }

    /// Limits the number of voices used (1…capacity).
    public mutating func setPolyphony(_ voices: Int) {
        polyphony = min(max(voices, 1), capacity)
    }

    public func state(of voice: Int) -> VoiceState { states[voice] }
    public func note(of voice: Int) -> UInt8 { notes[voice] }
    public func channel(of voice: Int) -> UInt8 { channels[voice] }

    /// Voices currently held or releasing.
    public var activeCount: Int { states.lazy.filter { $0 != .free }.count }

    /// Picks a voice for `note` on `channel` and marks it held.
    public mutating func noteOn(note: UInt8, channel: UInt8 = 0) -> Assignment {
        clock &+= 1
        var chosen = -1
        var retrigger = false
        // 1. The same note on the same channel, held or releasing: restart it in place.
        for v in 0..<polyphony where states[v] != .free && notes[v] == note && channels[v] == channel {
            chosen = v
            retrigger = true
            break
        }
        // 2. A free voice within the polyphony limit.
        if chosen < 0 {
            for v in 0..<polyphony where states[v] == .free {
                chosen = v
                break
            }
        }
        // 3. The voice released longest ago.
        if chosen < 0 { chosen = oldest(in: .released) }
        // 4. The oldest held voice.
        if chosen < 0 { chosen = oldest(in: .held) }
        let stolen: UInt8? = (!retrigger && states[chosen] != .free) ? notes[chosen] : nil
        states[chosen] = .held
        notes[chosen] = note
        channels[chosen] = channel
        stamps[chosen] = clock
        return Assignment(voice: chosen, stolenNote: stolen, isRetrigger: retrigger)
    }

    /// Releases every held voice playing `note` on `channel`. Calls `body` with each released voice.
    public mutating func noteOff(note: UInt8, channel: UInt8 = 0, _ body: (Int) -> Void) {
        clock &+= 1
        for v in 0..<capacity where states[v] == .held && notes[v] == note && channels[v] == channel {
            states[v] = .released
            stamps[v] = clock
            body(v)
        }
    }

    /// Releases every held voice (all notes off). Calls `body` with each released voice.
    public mutating func releaseAll(_ body: (Int) -> Void) {
        clock &+= 1
        for v in 0..<capacity where states[v] == .held {
            states[v] = .released
            stamps[v] = clock
            body(v)
        }
    }

    /// Marks a voice free once its release (or steal fade) has finished.
    public mutating func voiceBecameIdle(_ voice: Int) {
        states[voice] = .free
    }

    private func oldest(in state: VoiceState) -> Int {
        var best = -1
        var bestStamp = UInt64.max
        for v in 0..<polyphony where states[v] == state && stamps[v] < bestStamp {
            best = v
            bestStamp = stamps[v]
        }
        return best
    }
}
