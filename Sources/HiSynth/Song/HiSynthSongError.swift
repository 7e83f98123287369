import Ariel

/// Why a song cannot be played.
public enum HiSynthSongError: Error, Sendable, CustomStringConvertible {
    /// The bytes are not a valid Standard MIDI File.
    case malformed(MIDIFileError)
    /// The song lasts longer than `HiSynthSong.maximumDuration`.
    case tooLong(seconds: Double)

    public var description: String {
        switch self {
        case .malformed(let e): "not a valid Standard MIDI File: \(e)"
        case .tooLong(let s):
            "the song lasts \(Int(s.rounded())) s, longer than the \(Int(HiSynthSong.maximumDuration)) s HiSynth plays (a tempo or time-division error?)"
        }
    }
}
