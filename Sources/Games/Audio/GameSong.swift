import Ariel

/// The games' background music and harmony phrases, generated as MIDI (no audio files from elsewhere).
///
/// Music: 100 BPM, 4/4, 16 bars (38.4 s, then it loops) in C major, four 4-bar sections on
/// I – vi – IV – V (C, Am, F, G). Each bar: the chord's root in octave 2 on beats 1 and 3 (bass), the
/// triad in octave 4 held over beats 1–2 and again 3–4 (pad), and the triad broken in eighths in
/// octave 5 at a soft velocity (motion).
///
/// Harmony phrases (Harmony With Me's sound groups): one group per section, its sounds three short
/// phrases over the section's chord in octave 5–6, four eighth notes each: rising (1 3 5 8), falling
/// (8 5 3 1) and turning (5 8 3 5). A phrase lasts 1.2 s plus the synth's release.
public struct GameSong: Sendable, Hashable {
    /// Tempo in beats per minute.
    public static let bpm = 100.0
    public static let beatsPerBar = 4
    public static let bars = 16
    public static let barsPerSection = 4
    /// Triads per section (MIDI notes of root, third, fifth in octave 4): C, Am, F, G.
    public static let sectionChords: [[Int]] = [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]]
    /// Phrases per sound group.
    public static let phrasesPerGroup = 3

    public static var beat: Double { 60 / bpm }
    public static var bar: Double { beat * Double(beatsPerBar) }
    /// The loop's length in seconds (38.4).
    public static var length: Double { bar * Double(bars) }
    public static var sectionCount: Int { bars / barsPerSection }

    /// One phrase: note events in seconds from its start, and how long it sounds (with release).
    public struct Phrase: Sendable, Hashable {
        public var notes: [(time: Double, note: Int, velocity: Int, length: Double)]
        public static func == (a: Phrase, b: Phrase) -> Bool {
            a.notes.count == b.notes.count && zip(a.notes, b.notes).allSatisfy { $0 == $1 }
        }
        public func hash(into hasher: inout Hasher) { for n in notes { hasher.combine(n.time); hasher.combine(n.note) } }

        /// Seconds from the phrase's start to its last note-off.
        public var end: Double { notes.map { $0.time + $0.length }.max() ?? 0 }
    }

    public init() {}

    /// The background music as timed MIDI messages over one loop (channel 1).
    public static func musicEvents() -> [(seconds: Double, message: MIDIMessage)] {
        var events: [(seconds: Double, message: MIDIMessage)] = []
        func note(_ t: Double, _ n: Int, _ v: Int, _ length: Double) {
            events.append((t, .noteOn(channel: 0, note: MIDIUInt7(clamping: n), velocity: MIDIUInt7(clamping: v))))
            events.append((t + length, .noteOff(channel: 0, note: MIDIUInt7(clamping: n), velocity: MIDIUInt7(clamping: 0))))
        }
        for b in 0..<bars {
            let chord = sectionChords[b / barsPerSection]
            let t0 = Double(b) * bar
            for half in 0..<2 {
                let t = t0 + Double(half * 2) * beat
                note(t, chord[0] - 24, 92, beat * 0.9)
                for n in chord { note(t, n, 58, beat * 1.95) }
            }
            let broken = [chord[0], chord[1], chord[2], chord[0] + 12, chord[2], chord[1], chord[0] + 12, chord[2]]
            for (k, n) in broken.enumerated() { note(t0 + Double(k) * beat / 2, n + 12, 40, beat * 0.45) }
        }
        return events
    }

    /// Every harmony phrase, group by group (`group * phrasesPerGroup + k`).
    public static func phrases() -> [Phrase] {
        var out: [Phrase] = []
        for chord in sectionChords {
            let up = chord.map { $0 + 12 }
            let degrees = [[up[0], up[1], up[2], up[0] + 12], [up[0] + 12, up[2], up[1], up[0]], [up[2], up[0] + 12, up[1], up[2]]]
            for line in degrees {
                out.append(Phrase(notes: line.enumerated().map { (Double($0.offset) * beat / 2, $0.element, 100, beat / 2 * 0.95) }))
            }
        }
        return out
    }

    /// A phrase as timed MIDI messages (channel 1).
    public static func events(of phrase: Phrase) -> [(seconds: Double, message: MIDIMessage)] {
        phrase.notes.flatMap { n -> [(seconds: Double, message: MIDIMessage)] in
            [(n.time, .noteOn(channel: 0, note: MIDIUInt7(clamping: n.note), velocity: MIDIUInt7(clamping: n.velocity))),
             (n.time + n.length, .noteOff(channel: 0, note: MIDIUInt7(clamping: n.note), velocity: MIDIUInt7(clamping: 0)))]
        }
    }

    /// Synth settings of the background music: a soft saw through the tone filter with some reverb.
    public static var musicSettings: PolySynthSettings {
        var s = PolySynthSettings()
        s.waveform = .saw
        s.attack = 0.01; s.decay = 0.4; s.sustain = 0.6; s.release = 0.25
        s.tone = .init(enabled: true, cutoff: 2_400)
        s.reverb = .init(enabled: true, decay: 1.6, size: 0.8, damping: 0.5, diffusion: 0.7, mix: 0.18)
        s.outputGain = -6
        return s
    }

    /// Synth settings of the harmony phrases: a bell-like triangle.
    public static var harmonySettings: PolySynthSettings {
        var s = PolySynthSettings()
        s.waveform = .triangle
        s.attack = 0.003; s.decay = 0.35; s.sustain = 0.4; s.release = harmonyRelease
        s.outputGain = -4
        return s
    }

    /// The harmony synth's release (s); a phrase sounds until its last note-off plus this.
    public static let harmonyRelease = 0.3
}
