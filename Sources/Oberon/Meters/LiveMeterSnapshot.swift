import Foundation

/// What the live level meters show at one moment, for a status line or the studio's meter bridge:
/// per channel the peak meter's level (instant attack, hold, 20 dB in 1.7 s), the RMS over the last
/// 300 ms (plain RMS: a full-scale sine reads −3.01 dBFS, no AES17 +3 dB offset) and the highest
/// sample since the meter started, all in dBFS (`PeakMeter.floorDecibels` for silence, never −∞).
public struct LiveMeterSnapshot: Sendable, Hashable, Codable {
    public var peakLeftDBFS: Double
    public var peakRightDBFS: Double
    public var rmsLeftDBFS: Double
    public var rmsRightDBFS: Double
    public var maximumPeakDBFS: Double
    /// Seconds of audio the meter has seen.
    public var seconds: Double
    /// Blocks the audio side dropped because no one read them in time.
    public var droppedBlocks: Int

    public init(peakLeftDBFS: Double = PeakMeter.floorDecibels, peakRightDBFS: Double = PeakMeter.floorDecibels,
                rmsLeftDBFS: Double = PeakMeter.floorDecibels, rmsRightDBFS: Double = PeakMeter.floorDecibels,
                maximumPeakDBFS: Double = PeakMeter.floorDecibels, seconds: Double = 0, droppedBlocks: Int = 0) {
        self.peakLeftDBFS = peakLeftDBFS
        self.peakRightDBFS = peakRightDBFS
        self.rmsLeftDBFS = rmsLeftDBFS
        self.rmsRightDBFS = rmsRightDBFS
        self.maximumPeakDBFS = maximumPeakDBFS
        self.seconds = seconds
        self.droppedBlocks = droppedBlocks
    }

    /// "peak -12.3/-12.5 dBFS  RMS -20.1/-20.4 dBFS" (left/right; RMS without the +3 dB offset).
    public var line: String {
        String(format: "peak %.1f/%.1f dBFS  RMS %.1f/%.1f dBFS", peakLeftDBFS, peakRightDBFS, rmsLeftDBFS, rmsRightDBFS)
    }
}
