extension HiSynthPreset {
    /// The ADSR shared by all voices. Times in seconds, sustain as a linear gain.
    public struct Envelope: Sendable, Hashable {
        /// Attack 0…2 s.
        public static let attackRange: ClosedRange<Float> = 0...2
        /// Decay 0.05…2 s.
        public static let decayRange: ClosedRange<Float> = 0.05...2
        /// Sustain 0…1 (linear gain).
        public static let sustainRange: ClosedRange<Float> = 0...1
        /// Release 0.05…10 s (a log slider in the UI).
        public static let releaseRange: ClosedRange<Float> = 0.05...10

        /// Attack time in seconds, `attackRange`.
        public var attack: Float16
        /// Decay time in seconds, `decayRange` (the wire field is the original's "decayDuraction").
        public var decay: Float16
        /// Sustain level, linear gain, `sustainRange`.
        public var sustain: Float16
        /// Release time in seconds, `releaseRange`.
        public var release: Float16

        public init(attack: Float16, decay: Float16, sustain: Float16, release: Float16) {
            self.attack = attack
            self.decay = decay
            self.sustain = sustain
            self.release = release
        }
    }
}
