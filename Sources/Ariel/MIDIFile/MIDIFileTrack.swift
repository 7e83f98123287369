/// One MTrk chunk.
public struct MIDIFileTrack: Sendable, Hashable {
    public var events: [MIDIFileEvent]

    public init(events: [MIDIFileEvent] = []) { self.events = events }

    /// The first Track Name meta event's text.
    public var name: String? {
        for e in events {
            if case .meta(let m) = e.kind, m.type == MIDIMetaEvent.trackNameType { return m.text }
        }
        return nil
    }

    /// Events with absolute times in ticks from the track start.
    public var timedEvents: [(tick: Int, event: MIDIFileEvent)] {
        var tick = 0
        return events.map { e in
            tick += e.delta
            return (tick, e)
        }
    }

    /// Ticks from the start to the last event (the End of Track when present).
    public var durationInTicks: Int { events.reduce(0) { $0 + $1.delta } }
}
