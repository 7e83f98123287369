extension HiSynthPreset {
    /// The drive (soft clip plus polynomial distortion).
    public struct Drive: Sendable, Hashable {
        /// Soft-clip gain −40…+20 dB in the UI (the audio unit accepts −80…20).
        public static let gainRange: ClosedRange<Float> = -40...20
        /// Polynomial mix 0…100 %.
        public static let mixRange: ClosedRange<Float> = 0...100

        public var on: Bool
        /// Soft-clip gain in dB, `gainRange`.
        public var gain: Float16
        /// Polynomial mix in percent, `mixRange`.
        public var mix: Float16

        public init(on: Bool, gain: Float16, mix: Float16) {
            self.on = on
            self.gain = gain
            self.mix = mix
        }
    }
}
