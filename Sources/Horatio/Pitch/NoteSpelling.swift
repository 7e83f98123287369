/// Whether a black key is named as a sharp (C#) or a flat (Db) when no key context decides.
public enum NoteSpelling: String, Sendable, Hashable, Codable, CaseIterable {
    case sharps
    case flats
}
