extension HiSynthPreset {
    /// One oscillator layer (8 voices in the engine).
    public struct Oscillator: Sendable, Hashable {
        /// Level 0…1 (linear gain); the original's start-up value is 0.75.
        public static let levelRange: ClosedRange<Float> = 0...1
        /// Pitch offset −12…+12 semitones, added to the MIDI note (integer steps in the UI).
        public static let pitchRange: ClosedRange<Float> = -12...12

        /// The layer's waveform.
        public var waveform: HiSynthWaveform
        /// Linear gain, `levelRange`.
        public var level: Float16
        /// Semitones added to the note, `pitchRange`.
        public var pitch: Float16

        public init(waveform: HiSynthWaveform, level: Float16, pitch: Float16) {
            self.waveform = waveform
            self.level = level
            self.pitch = pitch
        }
    }
}
