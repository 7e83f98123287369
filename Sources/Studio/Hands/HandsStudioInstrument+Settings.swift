import InstrumentSettings

extension HandsStudioInstrument {
    /// The synth panel's continuous controls (``HandsSynthControl/learnableControls``).
    public static var learnableControls: [MIDILearnableControl] { HandsSynthControl.learnableControls }

    /// The hands screen's settings and its synth panel, the settings file's `hands` section.
    public func savedSettings() -> StudioValue? { ProsperoSettings.handsJSON(controller.settings) }

    public func restoreSettings(_ section: StudioValue) -> [String] {
        guard let members = section.object else { return ["hands: must be an object"] }
        var refused: [String] = []
        func set(_ path: String, _ value: StudioValue) {
            do { _ = try apply(set: path, value: value) } catch { refused.append("\(path): \(error.message)") }
        }
        for name in ["key", "scale", "channelMode", "channel", "channels", "bendRange", "bend", "output", "velocity"] {
            if let v = members[name] { set("hands.\(name)", v) }
        }
        // The range is validated as a whole: the low note again after the high one settles it.
        if let low = members["low"], let high = members["high"] {
            _ = try? apply(set: "hands.low", value: low)
            set("hands.high", high)
            set("hands.low", low)
        }
        for (name, value) in members["synth"]?.object ?? [:] { set("hands.synth.\(name)", value) }
        return refused
    }
}
