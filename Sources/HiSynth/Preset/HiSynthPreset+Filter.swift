extension HiSynthPreset {
    /// One resonant 2-pole filter.
    public struct Filter: Sendable, Hashable {
        /// Cutoff 10…22050 Hz (a log slider in the UI).
        public static let cutoffRange: ClosedRange<Float> = 10...22050
        /// A preset's stored cutoff, 0…22050 Hz: below `cutoffRange` it keeps its meaning as an LFO base
        /// (0 = no LFO effect, as ten factory presets store for the high-pass) while the filter runs at 10 Hz.
        public static let baseCutoffRange: ClosedRange<Float> = 0...cutoffRange.upperBound
        /// Resonance −20…+40 dB: the response's gain at the cutoff, so Q = 10^(dB/20).
        public static let resonanceRange: ClosedRange<Float> = -20...40

        /// Cutoff frequency in Hz, `cutoffRange`.
        public var cutoff: Float16
        /// Resonance in dB, `resonanceRange`.
        public var resonance: Float16

        public init(cutoff: Float16, resonance: Float16) {
            self.cutoff = cutoff
            self.resonance = resonance
        }
    }
}
