import HiSynth

extension FuzzTarget {
    /// Songs from arbitrary bytes. What is accepted must be a sane song: at most an hour long, notes
    /// sorted by start, each ending within the song and not before it starts, and a piano-roll window
    /// anywhere in it must come out.
    static func runHiSynthSong(_ bytes: [UInt8]) -> Bool {
        guard let song = try? HiSynthSong(bytes: bytes, name: "Fuzz - Song") else { return false }
        guard song.duration.isFinite, song.duration >= 0, song.duration <= HiSynthSong.maximumDuration else {
            fatalError("an accepted song lasts \(song.duration) s")
        }
        var previous = -Double.infinity
        for note in song.notes {
            guard note.start >= previous, note.end >= note.start, note.end <= song.duration + 1e-9, note.note < 128 else {
                fatalError("an accepted song has a note out of order or out of range: \(note)")
            }
            previous = note.start
        }
        _ = HiSynthPianoRoll.songWindow(song, position: song.duration / 2)
        return true
    }
}
