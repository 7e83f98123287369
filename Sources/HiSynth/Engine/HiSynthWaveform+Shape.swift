import Touchstone

extension HiSynthWaveform {
    /// The Touchstone shape the engine's oscillators and LFO tables use for this waveform.
    var shape: Waveform {
        switch self {
        case .sine: .sine
        case .square: .square
        case .saw: .saw
        case .triangle: .triangle
        case .pulse: .pulse
        case .rsaw: .reverseSaw
        }
    }
}
