extension PolySynthSettings {
    /// The range of every numeric setting, in its unit: the one place `validate`, `clamped` and the
    /// plugin ports read them from.
    public enum Ranges {
        /// Glide knob, 0…1 (glide time = value² seconds).
        public static let portamento: ClosedRange<Double> = 0...1
        /// Envelope times, seconds.
        public static let attack: ClosedRange<Double> = 0...20
        public static let decay: ClosedRange<Double> = 0...20
        public static let release: ClosedRange<Double> = 0...20
        /// Sustain level, linear.
        public static let sustain: ClosedRange<Double> = 0...1
        /// LFO rate, Hz.
        public static let lfoRate: ClosedRange<Double> = 0.05...20
        public static let lfoDepth: ClosedRange<Double> = 0...1
        public static let velocitySensitivity: ClosedRange<Double> = 0...1
        /// Semitones each way.
        public static let pitchBendRange: ClosedRange<Double> = 0...24
        /// A4 in Hz.
        public static let tuning: ClosedRange<Double> = 400...480
        public static let stereoSpread: ClosedRange<Double> = 0...1
        /// Tone low-pass cutoff, Hz.
        public static let toneCutoff: ClosedRange<Double> = 20...20_000
        /// Fuzz pre-gain, dB.
        public static let fuzzDrive: ClosedRange<Double> = 0...48
        /// Fuzz wet level, dB.
        public static let fuzzLevel: ClosedRange<Double> = -48...12
        public static let fuzzMix: ClosedRange<Double> = 0...1
        /// Delay time, seconds.
        public static let delayTime: ClosedRange<Double> = 0.001...2
        public static let delayFeedback: ClosedRange<Double> = 0...0.95
        public static let delayMix: ClosedRange<Double> = 0...1
        /// In-loop low-pass, Hz.
        public static let delayDamping: ClosedRange<Double> = 200...20_000
        /// Right channel's extra delay, seconds.
        public static let delayStereoOffset: ClosedRange<Double> = -0.05...0.05
        /// RT60, seconds.
        public static let reverbDecay: ClosedRange<Double> = 0.1...30
        public static let reverbSize: ClosedRange<Double> = 0.25...4
        public static let reverbDamping: ClosedRange<Double> = 0...1
        public static let reverbDiffusion: ClosedRange<Double> = 0...0.75
        public static let reverbMix: ClosedRange<Double> = 0...1
        /// Gain before the limiter, dB.
        public static let outputGain: ClosedRange<Double> = -60...12
        /// Limiter ceiling, dBFS.
        public static let ceiling: ClosedRange<Double> = -60...0
    }
}
