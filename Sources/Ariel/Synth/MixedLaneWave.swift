import Touchstone

/// Lanes of different waveforms: each waveform present is computed for all lanes (from the same
/// phases: every shape advances the phases alike) and kept where it belongs. Rare (a waveform change
/// while older notes ring), so simplicity beats speed here.
enum MixedLaneWave: PolySynthLaneWave {
    @inline(__always)
    static func next(_ oscillators: inout BandLimitedOscillatorLanes, _ waves: SIMD8<Int32>) -> SIMD8<Float> {
        let start = oscillators
        var y = SIMD8<Float>()
        let sine = waves .== 0, saw = waves .== 1, triangle = waves .== 2, square = waves .== 3
        if PolySynthVoiceLanes.anyLane(sine) {
            var o = start
            y.replace(with: SineShape.next(&o), where: sine)
            oscillators = o
        }
        if PolySynthVoiceLanes.anyLane(saw) {
            var o = start
            y.replace(with: SawShape.next(&o), where: saw)
            oscillators = o
        }
        if PolySynthVoiceLanes.anyLane(triangle) {
            var o = start
            y.replace(with: TriangleShape.next(&o), where: triangle)
            oscillators = o
        }
        if PolySynthVoiceLanes.anyLane(square) {
            var o = start
            y.replace(with: SquareShape.next(&o), where: square)
            oscillators = o
        }
        return y
    }
}
