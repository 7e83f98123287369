extension HiSynthPreset {
    /// One resonant 2-pole filter.
    public struct Filter: Sendable, Hashable {
        /// Cutoff 10…22050 Hz (a log slider in the UI).
        public static let cutoffRange: ClosedRange<Float> = 10...22050
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
