/// A control a MIDI controller can move: its full path (`hecate.bpm`, `hands.synth.delayMix`) and
/// the range a controller's 0…1 sweeps. Each instrument declares its own
/// (``StudioInstrument/learnableControls``) from the types that own the ranges, so a learned knob covers
/// exactly what the screen's control covers. Only continuous controls are learnable: a knob has no
/// sensible meaning on a choice such as the key.
public struct MIDILearnableControl: Sendable, Hashable {
    public var path: String
    public var range: ClosedRange<Double>

    public init(path: String, range: ClosedRange<Double>) {
        self.path = path
        self.range = range
    }

    /// Every learnable control of the studio's instruments (``StudioInstrumentRegistry/standardTypes``).
    public static let all: [MIDILearnableControl] = StudioInstrumentRegistry.standardTypes.flatMap { $0.learnableControls }

    /// The control at `path`, nil when it is not learnable.
    public static func named(_ path: String) -> MIDILearnableControl? { all.first { $0.path == path } }
}
