import Touchstone

/// Every lane in the waveform `Shape`: the oscillator step inlines into the voice loop.
enum UniformLaneWave<Shape: OscillatorShape>: PolySynthLaneWave {
    @inline(__always)
    static func next(_ oscillators: inout BandLimitedOscillatorLanes, _ waves: SIMD8<Int32>) -> SIMD8<Float> {
        Shape.next(&oscillators)
    }
}
