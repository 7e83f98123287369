/// The three touch games of the seed's haptic-music app.
public enum GameKind: String, Sendable, Hashable, CaseIterable {
    /// Harmony With Me: tap circles that appear with the music to add harmony phrases.
    case harmony
    /// Feel Your Vibe: vertical swipes set a tremolo's rate, horizontal position its depth.
    case vibe
    /// Touch for Music: touch and hold; height sets the music's volume.
    case touch

    public var title: String {
        switch self {
        case .harmony: return "Harmony With Me"
        case .vibe: return "Feel Your Vibe"
        case .touch: return "Touch for Music"
        }
    }
}
