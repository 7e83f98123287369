import Ariel
import Foundation

/// A song for HiSynth's player (spec §3): a Standard MIDI File and what a piano roll needs of it.
///
/// All tracks play (every channel; velocity and controllers are ignored by the synth). `notes` are the
/// file's notes with start and end times in seconds through its tempo map (a note-on without its
/// note-off ends at the end of the song). Titles follow the original's "Composer - Title" convention.
public struct HiSynthSong: Sendable {
    /// One note of the song, in seconds from the start.
    public struct Note: Sendable, Hashable {
        public var note: UInt8
        public var start: Double
        public var end: Double
    }

    public let file: MIDIFile
    public let title: String
    public let composer: String?
    /// Notes sorted by start time.
    public let notes: [Note]
    /// Seconds from the start to the last event (End of Track included).
    public let duration: Double

    /// Longest song the player and `prospero hisynth render` accept, in seconds.
    public static let maximumDuration = 3_600.0

    /// - Parameters:
    ///   - file: the parsed file.
    ///   - name: "Composer - Title" or a bare title (a file name without its extension).
    public init(file: MIDIFile, name: String) {
        self.file = file
        let parts = name.components(separatedBy: " - ")
        if parts.count >= 2 {
            composer = parts[0].trimmingCharacters(in: .whitespaces)
            title = parts.dropFirst().joined(separator: " - ").trimmingCharacters(in: .whitespaces)
        } else {
            composer = nil
            title = name
        }
        let map = file.tempoMap
        let tracks = file.format == .multiSequence ? Array(file.tracks.prefix(1)) : file.tracks
        var notes: [Note] = []
        var lastTick = 0
        for track in tracks {
            var tick = 0
            var open: [Int: [Int]] = [:]     // channel·128 + note → start ticks of sounding notes
            var ends: [(key: Int, start: Int, end: Int)] = []
            for e in track.events {
                tick += e.delta
                guard case .message(let m) = e.kind, let s = m.shortMessage, s.status >= 0x80, s.status < 0xA0 else { continue }
                let key = Int(s.status & 0x0F) * 128 + Int(s.data1)
                if s.status >= 0x90 && s.data2 > 0 {
                    open[key, default: []].append(tick)
                } else if var starts = open[key], !starts.isEmpty {
                    ends.append((key, starts.removeFirst(), tick))
                    open[key] = starts
                }
            }
            lastTick = max(lastTick, tick)
            for (key, starts) in open { for s in starts { ends.append((key, s, -1)) } }
            notes += ends.map { Note(note: UInt8($0.key & 127), start: map.seconds(atTick: $0.start), end: $0.end < 0 ? -1 : map.seconds(atTick: $0.end)) }
        }
        let duration = map.seconds(atTick: lastTick)
        self.duration = duration
        self.notes = notes.map { $0.end < 0 ? Note(note: $0.note, start: $0.start, end: duration) : $0 }
            .sorted { ($0.start, $0.note) < ($1.start, $1.note) }
    }

    /// Parses a Standard MIDI File's bytes. `name` as in `init(file:name:)`.
    /// - Throws: `MIDIFileError` naming what is wrong and where, or `HiSynthSongError.tooLong`.
    public init(bytes: [UInt8], name: String) throws(HiSynthSongError) {
        let file: MIDIFile
        do { file = try MIDIFile(decoding: bytes) } catch { throw .malformed(error) }
        self.init(file: file, name: name)
        guard duration <= Self.maximumDuration else { throw .tooLong(seconds: duration) }
    }

    /// The notes sounding at any time within `start…end` seconds (for the played window of a piano roll).
    public func notes(from start: Double, to end: Double) -> [Note] {
        notes.filter { $0.start <= end && $0.end >= start }
    }
}
