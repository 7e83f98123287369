import Ariel
import Oberon

/// The live commands' level meter: drains an engine's `LiveMeterTap` on the status thread (its one
/// reader) through Oberon's `LiveMeter` ballistics, and gives the status line's part.
final class LiveMeterLine: @unchecked Sendable {
    private let tap: LiveMeterTap
    private let sampleRate: () -> Double
    private var meter: LiveMeter?

    /// - Parameter sampleRate: the rate JACK prepared the engine for (read at the first line, after it started).
    init(tap: LiveMeterTap, sampleRate: @escaping () -> Double) {
        self.tap = tap
        self.sampleRate = sampleRate
    }

    /// The newest snapshot after draining the tap (call from one thread only).
    func snapshot() -> LiveMeterSnapshot {
        let meter = self.meter ?? LiveMeter(sampleRate: sampleRate())
        self.meter = meter
        meter.update(from: tap)
        return meter.snapshot
    }

    /// "peak -12.3/-12.5 dBFS  RMS -20.1/-20.4 dBFS".
    func line() -> String { snapshot().line }
}
