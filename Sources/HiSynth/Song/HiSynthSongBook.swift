import Ariel
import Horatio

/// Songs the project makes itself for HiSynth's player: public-domain pieces encoded here by hand, and a
/// generated study. Written to Standard MIDI Files by `prospero hisynth songs --write DIR`
/// (examples/hisynth/ holds the result).
///
/// Each part is a line of tokens: `E4` (a quarter note), `E4/0.5` (a note of 0.5 quarters), `r/2` (a
/// rest); bar lines `|` are ignored. Notes are played at velocity 96 and end 5 % of a beat early, so
/// repeated notes re-strike.
public enum HiSynthSongBook {
    /// One built-in song: "Composer - Title" and its file.
    public struct Entry: Sendable {
        public var name: String
        public var file: MIDIFile
        /// A file name for it: the name in lower case, words joined by "-", ".mid".
        public var fileName: String {
            let words = name.lowercased().split { !$0.isLetter && !$0.isNumber }
            return words.joined(separator: "-") + ".mid"
        }
        public var song: HiSynthSong { HiSynthSong(file: file, name: name) }
    }

    public static let ticksPerQuarter = 480

    /// Every built-in song, sorted by title as the original's list is.
    public static var all: [Entry] { [minuetInG, odeToJoy, tempoStudy].sorted { $0.song.title < $1.song.title } }

    /// Beethoven's "Ode to Joy" (Symphony No. 9, 1824), melody and bass in D major, with a ritardando
    /// in the last phrase (tempo 120 → 108 → 84 BPM).
    public static var odeToJoy: Entry {
        let melody = """
        F#4 F#4 G4 A4 | A4 G4 F#4 E4 | D4 D4 E4 F#4 | F#4/1.5 E4/0.5 E4/2 |
        F#4 F#4 G4 A4 | A4 G4 F#4 E4 | D4 D4 E4 F#4 | E4/1.5 D4/0.5 D4/2 |
        E4 E4 F#4 D4 | E4 F#4/0.5 G4/0.5 F#4 D4 | E4 F#4/0.5 G4/0.5 F#4 E4 | D4 E4 A3/2 |
        F#4 F#4 G4 A4 | A4 G4 F#4 E4 | D4 D4 E4 F#4 | E4/1.5 D4/0.5 D4/2
        """
        let bass = """
        D3/2 A2/2 | A2/2 E3/2 | D3/2 A2/2 | A2/2 E3/2 |
        D3/2 A2/2 | A2/2 E3/2 | D3/2 A2/2 | A2/2 D3/2 |
        A2/2 E3/2 | D3/2 A2/2 | A2/2 E3/2 | D3/2 A2/2 |
        D3/2 A2/2 | A2/2 E3/2 | D3/2 A2/2 | A2/2 D2/2
        """
        return Entry(name: "Beethoven - Ode to Joy",
                     file: file(parts: [melody, bass], tempos: [(0, 120), (48, 108), (60, 84)], beatsPerBar: 4))
    }

    /// The Minuet in G from the 1725 Notebook for Anna Magdalena Bach (attributed to Christian Petzold),
    /// first sixteen bars, both hands, 3/4 at 116 BPM.
    public static var minuetInG: Entry {
        let right = """
        D5 G4/0.5 A4/0.5 B4/0.5 C5/0.5 | D5 G4 G4 | E5 C5/0.5 D5/0.5 E5/0.5 F#5/0.5 | G5 G4 G4 |
        C5 D5/0.5 C5/0.5 B4/0.5 A4/0.5 | B4 C5/0.5 B4/0.5 A4/0.5 G4/0.5 | F#4 G4/0.5 A4/0.5 B4/0.5 G4/0.5 | A4/3 |
        D5 G4/0.5 A4/0.5 B4/0.5 C5/0.5 | D5 G4 G4 | E5 C5/0.5 D5/0.5 E5/0.5 F#5/0.5 | G5 G4 G4 |
        C5 D5/0.5 C5/0.5 B4/0.5 A4/0.5 | B4 C5/0.5 B4/0.5 A4/0.5 G4/0.5 | A4 B4/0.5 A4/0.5 G4/0.5 F#4/0.5 | G4/3
        """
        let left = """
        G3/2 A3 | B3/3 | C4/3 | B3/3 | A3/3 | G3/3 | D4 B3 G3 | D4 D3 C4 |
        B3/3 | B3/3 | C4/3 | B3/3 | A3/3 | G3/3 | D4 D3/2 | G3/2 G2
        """
        return Entry(name: "Petzold - Minuet in G", file: file(parts: [right, left], tempos: [(0, 116)], beatsPerBar: 3))
    }

    /// A generated study in three tempos (90, 140 and 60 BPM): broken chords I–vi–IV–V in C in eighths,
    /// a half-note bass; made to hear (and test) tempo changes.
    public static var tempoStudy: Entry {
        let chords: [[String]] = [["C4", "E4", "G4", "C5"], ["A3", "C4", "E4", "A4"], ["F3", "A3", "C4", "F4"], ["G3", "B3", "D4", "G4"]]
        let roots = ["C3", "A2", "F2", "G2"]
        var upper: [String] = [], lower: [String] = []
        for _ in 0..<3 {
            for (chord, root) in zip(chords, roots) {
                upper += (chord + chord.reversed()).map { "\($0)/0.5" }
                lower += ["\(root)/2", "\(root)/2"]
            }
        }
        return Entry(name: "Prospero - Tempo Study",
                     file: file(parts: [upper.joined(separator: " "), lower.joined(separator: " ")],
                                tempos: [(0, 90), (16, 140), (32, 60)], beatsPerBar: 4))
    }

    /// A format 1 file: a tempo track (tempo changes at beats, time signature) and one track per part.
    static func file(parts: [String], tempos: [(beat: Int, bpm: Double)], beatsPerBar: Int) -> MIDIFile {
        let q = ticksPerQuarter
        var conductor: [MIDIFileEvent] = [.meta(.timeSignature(numerator: beatsPerBar, denominator: 4))]
        var lastTick = 0
        for t in tempos {
            conductor.append(.meta(.tempo(bpm: t.bpm), delta: t.beat * q - lastTick))
            lastTick = t.beat * q
        }
        var tracks = [MIDIFileTrack(events: conductor)]
        for (index, part) in parts.enumerated() {
            let channel = MIDIChannel(index) ?? 0
            var timed: [(tick: Int, order: Int, message: MIDIMessage)] = []
            var tick = 0
            for token in part.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" }) {
                let pieces = token.split(separator: "/")
                let beats = pieces.count > 1 ? Double(pieces[1]) ?? 1 : 1
                let length = Int((beats * Double(q)).rounded())
                if pieces[0] != "r", let pitch = try? Pitch(parsing: String(pieces[0])),
                   let note = MIDIUInt7(pitch.midiNoteNumber) {
                    let gap = q / 20
                    timed.append((tick, 1, .noteOn(channel: channel, note: note, velocity: MIDIUInt7(clamping: 96))))
                    timed.append((tick + length - gap, 0, .noteOff(channel: channel, note: note, velocity: MIDIUInt7(clamping: 64))))
                }
                tick += length
            }
            timed.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
            var events: [MIDIFileEvent] = [.meta(.trackName(index == 0 ? "Melody" : "Bass"))]
            var previous = 0
            for t in timed {
                events.append(.message(t.message, delta: t.tick - previous))
                previous = t.tick
            }
            tracks.append(MIDIFileTrack(events: events))
        }
        return MIDIFile(format: .multiTrack, division: .ticksPerQuarterNote(q), tracks: tracks)
    }
}
