/// A control a MIDI controller can move: its full path (`hecate.bpm`, `hands.synth.delayMix`) and
/// the range a controller's 0…1 sweeps. The ranges are read from the types that own them
/// (``HecateStudioSettings``, ``HandsSynthControl``), so a learned knob covers exactly what the
/// screen's control covers. Only continuous controls are learnable: a knob has no sensible
/// meaning on a choice such as the key.
public struct MIDILearnableControl: Sendable, Hashable {
    public var path: String
    public var range: ClosedRange<Double>

    public init(path: String, range: ClosedRange<Double>) {
        self.path = path
        self.range = range
    }

    /// Hecate's knobs: tempo, tremolo depth, bass, drone and reverb levels.
    public static let hecate: [MIDILearnableControl] = [
        .init(path: "hecate.bpm", range: HecateStudioSettings.bpmRange),
        .init(path: "hecate.tremoloDepth", range: HecateStudioSettings.unitRange),
        .init(path: "hecate.bassLevel", range: HecateStudioSettings.unitRange),
        .init(path: "hecate.droneLevel", range: HecateStudioSettings.unitRange),
        .init(path: "hecate.reverb", range: HecateStudioSettings.unitRange),
    ]

    /// The hands synth panel's continuous controls (attack, release, … gain).
    public static let hands: [MIDILearnableControl] = HandsSynthControl.all.compactMap { control in
        guard case .continuous(_, let range, _) = control.kind else { return nil }
        return .init(path: "hands.synth.\(control.name)", range: range)
    }

    public static let all = hecate + hands

    /// The control at `path`, nil when it is not learnable.
    public static func named(_ path: String) -> MIDILearnableControl? { all.first { $0.path == path } }
}
