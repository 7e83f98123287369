/// The piano roll a display draws (spec §3, Rack): the last note events as bars in a 4-second window
/// scrolling left, and the song's notes in the same window.
///
/// Geometry as the original: x = w − (now − t)/4·w, y = (note − 33)/72·h (MIDI 33…105), bars 2 px
/// tall; a note still held extends to now. Built on a display thread from `HiSynthNoteLog.events()`
/// and the engine clock (`HiSynthPlayerSnapshot.engineFrame`); allocates, never on the audio thread.
public struct HiSynthPianoRoll: Sendable, Hashable {
    /// Seconds the window shows.
    public static let windowSeconds = 4.0
    /// Lowest and highest MIDI note drawn.
    public static let lowestNote = 33
    public static let highestNote = 105

    /// One bar: a note from `start` to `end`, in seconds before now (start ≥ end ≥ 0).
    public struct Bar: Sendable, Hashable {
        public var note: UInt8
        public var start: Double
        public var end: Double
        /// Still held (extends to now).
        public var isHeld: Bool

        public init(note: UInt8, start: Double, end: Double, isHeld: Bool) {
            self.note = note
            self.start = start
            self.end = end
            self.isHeld = isHeld
        }
    }

    /// Bars of the logged events that reach into the window, oldest first.
    public var bars: [Bar]

    /// Pairs the logged on/off events into bars, as seen at engine frame `now`.
    ///
    /// - Parameters:
    ///   - events: the note log, oldest first (`HiSynthNoteLog.events()`).
    ///   - now: the engine clock in samples.
    ///   - sampleRate: Hz.
    public init(events: [HiSynthNoteEvent], now: Int64, sampleRate: Double) {
        var open: [UInt8: Int64] = [:]
        var bars: [Bar] = []
        func ago(_ frame: Int64) -> Double { max(0, Double(now - frame) / sampleRate) }
        for e in events {
            if e.isOn {
                if let start = open[e.note] { bars.append(Bar(note: e.note, start: ago(start), end: ago(e.frame), isHeld: false)) }
                open[e.note] = e.frame
            } else if let start = open.removeValue(forKey: e.note) {
                bars.append(Bar(note: e.note, start: ago(start), end: ago(e.frame), isHeld: false))
            }
        }
        for (note, start) in open { bars.append(Bar(note: note, start: ago(start), end: 0, isHeld: true)) }
        self.bars = bars.filter { $0.end <= Self.windowSeconds }.sorted { ($0.start, $0.note) > ($1.start, $1.note) }
    }

    /// x of a moment `secondsAgo` before now in a roll `width` wide (the right edge is now).
    public static func x(secondsAgo: Double, width: Double) -> Double { width - secondsAgo / windowSeconds * width }

    /// y of `note` in a roll `height` tall (0 at MIDI 33, `height` at 105).
    public static func y(note: UInt8, height: Double) -> Double {
        Double(Int(note) - lowestNote) / Double(highestNote - lowestNote) * height
    }

    /// The song's notes within the played window (the 4 s up to `position`), as bars.
    public static func songWindow(_ song: HiSynthSong, position: Double) -> [Bar] {
        song.notes(from: position - windowSeconds, to: position).map {
            Bar(note: $0.note, start: max(0, position - $0.start), end: max(0, position - $0.end), isHeld: $0.end > position)
        }
    }
}
