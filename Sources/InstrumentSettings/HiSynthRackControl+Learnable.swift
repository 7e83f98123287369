extension HiSynthRackControl {
    /// The rack's continuous knobs (levels, envelope, filters, LFO depth, speed and phase, effect amounts) as
    /// `hisynth.NAME`; whole-number controls (pitch, reverb size) and switches are not learnable.
    public static let learnableControls: [MIDILearnableControl] = all.compactMap { control in
        guard case .number(let range, let whole, _) = control.kind, !whole else { return nil }
        return .init(path: "hisynth.\(control.name)", range: range)
    }
}
