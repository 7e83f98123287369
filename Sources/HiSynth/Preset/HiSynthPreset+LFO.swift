extension HiSynthPreset {
    /// One LFO and its row of the modulation matrix.
    public struct LFO: Sendable, Hashable {
        /// Depth 0…1; depth 0 stops the LFO (output 0).
        public static let depthRange: ClosedRange<Float> = 0...1
        /// Speed 0.25…20 Hz.
        public static let speedRange: ClosedRange<Float> = 0.25...20
        /// Phase offset 0…1 of a cycle (the UI shows value·2 as "x.xπ").
        public static let phaseRange: ClosedRange<Float> = 0...1

        /// The LFO's waveform.
        public var waveform: HiSynthWaveform
        /// Output scale, `depthRange`.
        public var depth: Float16
        /// Rate in Hz, `speedRange`.
        public var speed: Float16
        /// Phase offset in cycles, `phaseRange`.
        public var phase: Float16
        /// Routed to every voice's pitch (ΔHz = 440·(10^(0.1·v) − 1)).
        public var pitch: Bool
        /// Routed to the filter-out gain (0.5 + 0.5·v, clamped 0…1).
        public var amplitude: Bool
        /// Routed to the low-pass cutoff (B·(10^v − 1)).
        public var filterLow: Bool
        /// Routed to the high-pass cutoff (B·(10^v − 1)).
        public var filterHigh: Bool

        public init(
            waveform: HiSynthWaveform, depth: Float16, speed: Float16, phase: Float16,
            pitch: Bool, amplitude: Bool, filterLow: Bool, filterHigh: Bool
        ) {
            self.waveform = waveform
            self.depth = depth
            self.speed = speed
            self.phase = phase
            self.pitch = pitch
            self.amplitude = amplitude
            self.filterLow = filterLow
            self.filterHigh = filterHigh
        }
    }
}
