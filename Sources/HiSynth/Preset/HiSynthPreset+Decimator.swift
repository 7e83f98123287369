extension HiSynthPreset {
    /// The decimator (sample-and-hold rate reduction).
    public struct Decimator: Sendable, Hashable {
        /// Decimation 0…30 % in the UI (the audio unit accepts 0…100).
        public static let rateRange: ClosedRange<Float> = 0...30
        /// Final mix 0…100 %.
        public static let mixRange: ClosedRange<Float> = 0...100

        public var on: Bool
        /// Decimation amount in percent, `rateRange`.
        public var rate: Float16
        /// Wet percentage, `mixRange`.
        public var mix: Float16

        public init(on: Bool, rate: Float16, mix: Float16) {
            self.on = on
            self.rate = rate
            self.mix = mix
        }
    }
}
