import Touchstone

/// The oscillator step of a `PolySynthVoiceLanes` run, chosen once per run: one waveform for every lane
/// (`UniformLaneWave`, the usual case), or lanes of different waveforms (`MixedLaneWave`, after a
/// waveform change while older notes still sound).
protocol PolySynthLaneWave {
    /// Next sample per lane; `waves` holds each lane's `PolySynthVoiceLanes.waveCode`.
    static func next(_ oscillators: inout BandLimitedOscillatorLanes, _ waves: SIMD8<Int32>) -> SIMD8<Float>
}
