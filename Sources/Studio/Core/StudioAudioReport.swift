import InstrumentSettings

/// What a listening page tells the server about its browser-audio player, twice a second:
/// `{"type":"audio","fill":31.2,"target":30,"latency":45.8,"dropouts":0}` (milliseconds; see
/// docs/studio-protocol.md). The server steers its render rate on `fill − target` (``StudioRateSteering``)
/// and shows `latency` and `dropouts` on Home.
public struct StudioAudioReport: Equatable, Sendable {
    /// The jitter buffer's smoothed fill, ms (0…1000).
    public var fillMs: Double
    /// The fill the player aims at, ms (0…1000).
    public var targetMs: Double
    /// What the listener hears behind the server's render: buffer fill + the AudioContext's output
    /// latency, ms (0…10 000).
    public var latencyMs: Double
    /// Underruns since the page started listening.
    public var dropouts: Int

    public init(fillMs: Double, targetMs: Double, latencyMs: Double, dropouts: Int) {
        self.fillMs = fillMs
        self.targetMs = targetMs
        self.latencyMs = latencyMs
        self.dropouts = dropouts
    }

    /// Reads the fields of an `audio` message; throws `bad_message` naming the field.
    static func parse(_ object: [String: StudioValue]) throws(StudioError) -> StudioAudioReport {
        func number(_ key: String, _ range: ClosedRange<Double>) throws(StudioError) -> Double {
            guard let n = object[key]?.number, n.isFinite, range.contains(n) else {
                throw .badMessage("\"\(key)\" must be a number \(Int(range.lowerBound))…\(Int(range.upperBound))", ref: "audio")
            }
            return n
        }
        let dropouts = try number("dropouts", 0...1e9)
        guard dropouts == dropouts.rounded() else { throw .badMessage("\"dropouts\" must be a whole number", ref: "audio") }
        return StudioAudioReport(fillMs: try number("fill", 0...1000), targetMs: try number("target", 0...1000),
                                 latencyMs: try number("latency", 0...10_000), dropouts: Int(dropouts))
    }
}
