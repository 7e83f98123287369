import Ariel
import Foundation

/// Notes laid out in time, for a piano-roll picture: from a Standard MIDI File (through its tempo map)
/// or from a recording of timed MIDI messages.
///
/// Note-ons with velocity 0 are note-offs; a note still held at the end closes at the last event; a
/// repeated note-on of a sounding key closes the earlier note first.
public struct PianoRoll: Sendable, Hashable {
    /// One note: MIDI key 0…127, channel 0…15, start and end in seconds, velocity 1…127.
    public struct Note: Sendable, Hashable {
        public var key: Int
        public var channel: Int
        public var start: Double
        public var end: Double
        public var velocity: Int

        public init(key: Int, channel: Int, start: Double, end: Double, velocity: Int) {
            self.key = key; self.channel = channel; self.start = start; self.end = end; self.velocity = velocity
        }
    }

    /// Notes ordered by start time, then key.
    public private(set) var notes: [Note]
    /// Time of the last event, in seconds.
    public private(set) var duration: Double

    /// From `(seconds, message)` pairs in any order (a recording).
    public init(events: [(seconds: Double, message: MIDIMessage)]) {
        let ordered = events.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
        var open: [Int: (start: Double, velocity: Int)] = [:]  // channel * 128 + key
        var notes: [Note] = []
        var last = 0.0
        func close(_ slot: Int, at time: Double) {
            guard let begun = open.removeValue(forKey: slot) else { return }
            notes.append(Note(key: slot % 128, channel: slot / 128, start: begun.start, end: max(time, begun.start), velocity: begun.velocity))
        }
        for (time, message) in ordered where time.isFinite {
            last = max(last, time)
            switch message {
            case .noteOn(let channel, let key, let velocity) where velocity.rawValue > 0:
                let slot = Int(channel.rawValue) * 128 + Int(key.rawValue)
                close(slot, at: time)
                open[slot] = (time, Int(velocity.rawValue))
            case .noteOn(let channel, let key, _), .noteOff(let channel, let key, _):
                close(Int(channel.rawValue) * 128 + Int(key.rawValue), at: time)
            default:
                break
            }
        }
        for slot in open.keys.sorted() { close(slot, at: last) }
        self.notes = notes.sorted { ($0.start, $0.key) < ($1.start, $1.key) }
        duration = last
    }

    /// From a Standard MIDI File: every track's channel messages at their times in seconds.
    public init(file: MIDIFile) {
        let tempo = file.tempoMap
        var events: [(seconds: Double, message: MIDIMessage)] = []
        for track in file.tracks {
            for (tick, event) in track.timedEvents {
                if case .message(let message) = event.kind {
                    events.append((tempo.seconds(atTick: Double(tick)), message))
                }
            }
        }
        self.init(events: events)
    }

    /// The lowest and highest key sounding, or nil without notes.
    public var keyRange: ClosedRange<Int>? {
        guard let low = notes.map(\.key).min(), let high = notes.map(\.key).max() else { return nil }
        return low...high
    }
}
