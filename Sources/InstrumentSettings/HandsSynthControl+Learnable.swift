extension HandsSynthControl {
    /// The hands' synth panel's continuous controls (attack, release, … gain), as `hands.synth.NAME`.
    public static let learnableControls: [MIDILearnableControl] = all.compactMap { control in
        guard case .continuous(_, let range, _) = control.kind else { return nil }
        return .init(path: "hands.synth.\(control.name)", range: range)
    }
}
