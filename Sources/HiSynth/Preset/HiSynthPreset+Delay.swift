extension HiSynthPreset {
    /// The feedback delay (damping low-pass fixed at 15 kHz). Off is a bypass.
    public struct Delay: Sendable, Hashable {
        /// Feedback 0…100 % in the UI (the audio unit accepts −100…100).
        public static let feedbackRange: ClosedRange<Float> = 0...100
        /// Delay time 0…2 s.
        public static let timeRange: ClosedRange<Float> = 0...2
        /// Dry/wet mix 0…100 %.
        public static let mixRange: ClosedRange<Float> = 0...100

        public var on: Bool
        /// Feedback in percent, `feedbackRange`.
        public var feedback: Float16
        /// Delay time in seconds, `timeRange`.
        public var time: Float16
        /// Wet percentage, `mixRange`.
        public var mix: Float16

        public init(on: Bool, feedback: Float16, time: Float16, mix: Float16) {
            self.on = on
            self.feedback = feedback
            self.time = time
            self.mix = mix
        }
    }
}
