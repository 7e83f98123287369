/// Why an offline render did not start.
public enum OfflineRenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input (song, recording, commands) lasts longer than `OfflineRenderOptions.maximumSeconds`;
    /// found before any audio is rendered or memory is taken for it.
    case tooLong(seconds: Double, limit: Double)

    public var description: String {
        switch self {
        case .tooLong(let seconds, let limit):
            return "the input lasts \(Self.clock(seconds)), longer than the render limit of \(Self.clock(limit))"
        }
    }

    /// "77 h 40 min 12 s (279612 s)", "4 h (14400 s)", "19.4 s".
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "\(seconds) s" }
        if seconds < 60 { return "\((seconds * 10).rounded() / 10) s" }
        return hoursMinutesSeconds(seconds) + " (\(Int(seconds.rounded())) s)"
    }

    static func hoursMinutesSeconds(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        var parts: [String] = []
        if h > 0 { parts.append("\(h) h") }
        if m > 0 { parts.append("\(m) min") }
        if s > 0 || parts.isEmpty { parts.append("\(s) s") }
        return parts.joined(separator: " ")
    }
}
