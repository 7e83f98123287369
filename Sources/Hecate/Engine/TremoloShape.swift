import Touchstone

/// The tremolo's LFO shape. Square and saw edges pass a one-pole smoother so they never click.
public enum TremoloShape: String, Sendable, Hashable, Codable, CaseIterable {
    case sine, triangle, square, saw

    /// Touchstone's waveform for this shape.
    public var waveform: Waveform {
        switch self {
        case .sine: .sine
        case .triangle: .triangle
        case .square: .square
        case .saw: .saw
        }
    }
}
