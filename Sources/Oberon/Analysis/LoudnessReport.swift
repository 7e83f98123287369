import Foundation

/// The figures of one programme: levels to broadcast standards (BS.1770-4 / EBU R128).
/// Absent values (silence: no block above the gates, or no sample above zero) are nil, never −∞.
public struct LoudnessReport: Sendable, Hashable {
    /// Highest sample magnitude, dBFS.
    public var samplePeakDBFS: Double?
    /// Highest 4× oversampled magnitude (BS.1770-4 Annex 2), dBTP.
    public var truePeakDBTP: Double?
    /// Integrated loudness, LUFS (gates −70 LUFS and −10 LU).
    public var integratedLUFS: Double?
    /// Loudness range, LU (EBU Tech 3342).
    public var loudnessRange: Double?
    /// Highest short-term (3 s) loudness, LUFS.
    public var shortTermMaxLUFS: Double?
    /// Highest momentary (400 ms) loudness, LUFS.
    public var momentaryMaxLUFS: Double?
    /// Length, seconds.
    public var durationSeconds: Double

    public init(samplePeakDBFS: Double?, truePeakDBTP: Double?, integratedLUFS: Double?, loudnessRange: Double?,
                shortTermMaxLUFS: Double?, momentaryMaxLUFS: Double?, durationSeconds: Double) {
        self.samplePeakDBFS = samplePeakDBFS
        self.truePeakDBTP = truePeakDBTP
        self.integratedLUFS = integratedLUFS
        self.loudnessRange = loudnessRange
        self.shortTermMaxLUFS = shortTermMaxLUFS
        self.momentaryMaxLUFS = momentaryMaxLUFS
        self.durationSeconds = durationSeconds
    }

    private static func figure(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "–" }
        return String(format: "%.1f %@", value, unit)
    }

    /// One line for render summaries: "integrated −16.2 LUFS, true peak −1.1 dBTP, LRA 5.3 LU".
    public var summary: String {
        "integrated \(Self.figure(integratedLUFS, "LUFS")), true peak \(Self.figure(truePeakDBTP, "dBTP")), "
            + "LRA \(Self.figure(loudnessRange, "LU"))"
    }

    /// The multi-line table `prospero analyze` prints.
    public var table: String {
        [
            "duration            \(String(format: "%.3f s", durationSeconds))",
            "sample peak         \(Self.figure(samplePeakDBFS, "dBFS"))",
            "true peak           \(Self.figure(truePeakDBTP, "dBTP"))  (BS.1770-4 Annex 2, 4× oversampled)",
            "integrated          \(Self.figure(integratedLUFS, "LUFS"))  (BS.1770-4, gates −70 LUFS / −10 LU)",
            "loudness range      \(Self.figure(loudnessRange, "LU"))  (EBU Tech 3342)",
            "short-term max      \(Self.figure(shortTermMaxLUFS, "LUFS"))  (3 s)",
            "momentary max       \(Self.figure(momentaryMaxLUFS, "LUFS"))  (400 ms)",
        ].joined(separator: "\n")
    }

    /// JSON with exactly the keys samplePeakDBFS, truePeakDBTP, integratedLUFS, loudnessRange,
    /// shortTermMaxLUFS, durationSeconds (in that order); absent values are null.
    public var json: String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return String(format: "%.2f", value)
        }
        return "{\"samplePeakDBFS\": \(number(samplePeakDBFS)), \"truePeakDBTP\": \(number(truePeakDBTP)), "
            + "\"integratedLUFS\": \(number(integratedLUFS)), \"loudnessRange\": \(number(loudnessRange)), "
            + "\"shortTermMaxLUFS\": \(number(shortTermMaxLUFS)), \"durationSeconds\": \(String(format: "%.3f", durationSeconds))}"
    }
}
