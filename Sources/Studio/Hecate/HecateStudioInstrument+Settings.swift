import Hecate
import InstrumentSettings

extension HecateStudioInstrument {
    /// Hecate's knobs (``HecateStudioSettings/learnableControls``).
    public static var learnableControls: [MIDILearnableControl] { HecateStudioSettings.learnableControls }

    /// The screen's settings (not the mute: a studio starts sounding), the settings file's `hecate`
    /// section; its `route` is the route in use (the session writes `auto` while it is the detected one).
    public func savedSettings() -> StudioValue? {
        var s = settings
        s.muted = false
        return ProsperoSettings.hecateJSON(s, routeIsAutomatic: false)
    }

    public func restoreSettings(_ section: StudioValue) -> [String] {
        guard let members = section.object else { return ["hecate: must be an object"] }
        var refused: [String] = []
        func set(_ path: String, _ value: StudioValue) {
            do { _ = try apply(set: path, value: value) } catch { refused.append("\(path): \(error.message)") }
        }
        // The pack first: it resets the levels, which follow.
        if let pack = members["pack"] { set("hecate.pack", pack) }
        for (name, value) in members.sorted(by: { $0.key < $1.key }) where !["pack", "chord", "route"].contains(name) {
            set("hecate.\(name)", value)
        }
        if let route = members["route"], route.string != "auto" { set("hecate.route", route) }
        if let chord = members["chord"] { _ = try? apply(action: "hecate.chord", value: chord) }
        return refused
    }
}
