extension HiSynthPreset {
    /// The reverb. "Off" sets the wet mix to 0 in the original (not a bypass).
    public struct Reverb: Sendable, Hashable {
        /// Size 1…3 in integer steps (small/medium/large room, or medium/large/large-2 hall).
        public static let sizeRange: ClosedRange<Float> = 1...3
        /// Wet/dry mix 0…1 (the original's start-up 50.0 is a bug that AudioKit clamps to 1).
        public static let mixRange: ClosedRange<Float> = 0...1

        public var on: Bool
        /// Room size step, `sizeRange`.
        public var size: Float16
        /// Room family.
        public var type: HiSynthReverbType
        /// Wet fraction, `mixRange`.
        public var mix: Float16

        public init(on: Bool, size: Float16, type: HiSynthReverbType, mix: Float16) {
            self.on = on
            self.size = size
            self.type = type
            self.mix = mix
        }
    }
}
