/// An oscillator or LFO waveform, with the preset strings' wire code as its raw value.
///
/// The shapes (spec §1): `saw` ramps −1…+1, `square` is −1 then +1, `triangle` starts at −1 and
/// peaks at +1 mid-cycle, `pulse` is +1 for the first 25 % then −1, `rsaw` ramps +1…−1.
/// The original's oscillator panel offers no `rsaw` (it is an LFO shape there), but a preset may
/// carry it, so oscillators accept it too.
public enum HiSynthWaveform: Int8, CaseIterable, Sendable, Hashable {
    case sine = 0
    case square = 1
    case saw = 2
    case triangle = 3
    case pulse = 4
    case rsaw = 5

    /// The name used in preset JSON and on the command line.
    public var name: String {
        switch self {
        case .sine: "sine"
        case .square: "square"
        case .saw: "saw"
        case .triangle: "triangle"
        case .pulse: "pulse"
        case .rsaw: "rsaw"
        }
    }

    /// The waveform called `name` (exact, lower case as in preset JSON), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
