import Hecate
import InstrumentSettings

extension StudioSession {
    /// Puts `settings` on the instruments, each reading its own section through its own controls (the same
    /// validation and engine commands as a page's `set`), and the MIDI bindings on the session. Returns a
    /// line per setting an instrument refused (none for a file this build wrote).
    @discardableResult
    public func apply(_ settings: ProsperoSettings) -> [String] {
        var refused: [String] = []
        for id in instrumentIDs {
            guard let section = settings.section(for: id) else { continue }
            refused += withInstrument(id) { $0.restoreSettings(section) } ?? []
        }
        midiBindings = settings.midi
        return refused
    }

    /// The settings the instruments hold now over `base` (what an instrument does not keep stays as in
    /// `base`), with the session's MIDI bindings. `automaticRoute`: the route Hecate got from detection at
    /// start; while Hecate's route is still that one, the file keeps `auto`.
    public func currentSettings(over base: ProsperoSettings, automaticRoute: OutputRoute?) -> ProsperoSettings {
        var s = base
        for id in instrumentIDs {
            guard let section = withInstrument(id, { $0.savedSettings() }) ?? nil else { continue }
            // An instrument writes only what its own controls accept; a refusal here would be a bug, and
            // the base's section then stays.
            try? s.setSection(id, section)
            if id == "hecate" { s.hecateRouteIsAutomatic = automaticRoute.map { $0 == s.hecate.route } ?? false }
        }
        s.midi = midiBindings
        return s
    }
}
