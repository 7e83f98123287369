/// Where the audio goes, which sets the limiter ceiling in play-along mode.
///
/// Alone, Hecate owns the output and limits at −6 dBFS. Playing along with other audio it leaves
/// headroom: −10 dBFS on wired headphones or the speaker, −14 dBFS over Bluetooth, whose codecs
/// and volume curves add level and distort sooner.
public enum OutputRoute: String, Sendable, Hashable, Codable, CaseIterable {
    case wired, speaker, bluetooth

    /// The limiter ceiling in dBFS for this route.
    /// - Parameter playAlong: whether other audio plays at the same time.
    public func limiterCeiling(playAlong: Bool) -> Double {
        guard playAlong else { return -6 }
        return self == .bluetooth ? -14 : -10
    }
}
