/// The tone banks' oscillator shape, chosen by a voice preset.
public enum OscillatorWaveform: String, Hashable, Sendable, Codable, CaseIterable {
    case sine, triangle, sawtooth, square
}
