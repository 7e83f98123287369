/// A control a MIDI controller can move: its full path (`hecate.bpm`, `hands.synth.delayMix`) and
/// the range a controller's 0…1 sweeps. Each instrument's list is declared beside the type that owns the
/// ranges (``HecateStudioSettings/learnableControls``, ``HandsSynthControl/learnableControls``,
/// ``HiSynthRackControl/learnableControls``), so a learned knob covers exactly what the screen's control
/// covers; the studio's instruments return those lists, and the command-line's learn options use them
/// without the studio. Only continuous controls are learnable: a knob has no sensible meaning on a choice
/// such as the key.
public struct MIDILearnableControl: Sendable, Hashable {
    public var path: String
    public var range: ClosedRange<Double>

    public init(path: String, range: ClosedRange<Double>) {
        self.path = path
        self.range = range
    }

    /// Every learnable control of the instruments whose settings the file keeps: what a binding in the file
    /// may name (the studio's registry declares the same union, `StudioInstrumentRegistry.standardTypes`,
    /// which a test holds equal).
    public static let all: [MIDILearnableControl] =
        HecateStudioSettings.learnableControls + HandsSynthControl.learnableControls + HiSynthRackControl.learnableControls

    /// The control at `path`, nil when it is not learnable.
    public static func named(_ path: String) -> MIDILearnableControl? { all.first { $0.path == path } }
}
