/// When Harmony With Me's circle is due and which sound group plays, as music positions in the loop.
///
/// Chosen (the seed gives no numbers): a circle is due at the start of every other bar, from the
/// second bar on (bars 2, 4, 6… counting from 1), and stays for one bar; with the song's 2.4 s bars that
/// is 8 circles per 38.4 s loop, at 2.4, 7.2, 12.0 … 36.0 s. Sound groups follow the song's sections: the
/// loop is cut into `groupCount` equal parts and the group is the part the music is in. A user's WAV
/// uses the same bar length (2.4 s) and four groups; circles that would outlast the loop are dropped.
public struct HarmonySchedule: Sendable, Hashable {
    /// Music positions (s) where a circle appears, ascending.
    public let circleTimes: [Double]
    /// How long a circle stays (s).
    public let circleDuration: Double
    /// Loop length (s).
    public let loopLength: Double
    public let groupCount: Int

    public init(loopLength: Double, bar: Double = GameSong.bar, groupCount: Int = GameSong.sectionCount) {
        self.loopLength = max(0, loopLength)
        circleDuration = bar
        self.groupCount = max(1, groupCount)
        var times: [Double] = []
        var t = bar
        while t + bar <= self.loopLength + 1e-9 {
            times.append(t)
            t += 2 * bar
        }
        circleTimes = times
    }

    /// The schedule of the generated song.
    public static let song = HarmonySchedule(loopLength: GameSong.length)

    /// The sound group (0…groupCount−1) at music position `position` (s).
    public func group(at position: Double) -> Int {
        guard loopLength > 0 else { return 0 }
        let g = Int((position / loopLength * Double(groupCount)).rounded(.down))
        return min(max(g, 0), groupCount - 1)
    }
}
