import Hecate

extension StudioSession {
    /// Puts `settings` on the instruments through their own controls (the same validation and engine
    /// commands as a page's `set`), and the MIDI bindings on the session. Returns a line per setting an
    /// instrument refused (none for a file this build wrote).
    @discardableResult
    public func apply(_ settings: ProsperoSettings) -> [String] {
        var refused: [String] = []
        func set(_ instrument: any StudioInstrument, _ path: String, _ value: StudioValue) {
            do { _ = try instrument.apply(set: path, value: value) } catch { refused.append("\(path): \(error.message)") }
        }
        _ = withInstrument(HecateStudioInstrument.id) { instrument in
            guard let members = settings.hecateJSON.object else { return }
            // The pack first: it resets the levels, which follow.
            if let pack = members["pack"] { set(instrument, "hecate.pack", pack) }
            for (name, value) in members.sorted(by: { $0.key < $1.key }) where !["pack", "chord", "route"].contains(name) {
                set(instrument, "hecate.\(name)", value)
            }
            set(instrument, "hecate.route", .string(settings.hecate.route.rawValue))
            _ = try? instrument.apply(action: "hecate.chord", value: .number(Double(settings.hecate.chord.rawValue)))
        }
        _ = withInstrument(HandsStudioInstrument.id) { instrument in
            guard let members = settings.handsJSON.object else { return }
            for name in ["key", "scale", "channelMode", "channel", "bendRange", "bend", "output"] {
                if let v = members[name] { set(instrument, "hands.\(name)", v) }
            }
            // The range is validated as a whole: the low note again after the high one settles it.
            if let low = members["low"], let high = members["high"] {
                _ = try? instrument.apply(set: "hands.low", value: low)
                set(instrument, "hands.high", high)
                set(instrument, "hands.low", low)
            }
            for (name, value) in members["synth"]?.object ?? [:] { set(instrument, "hands.synth.\(name)", value) }
        }
        midiBindings = settings.midi
        return refused
    }

    /// The settings the instruments hold now over `base` (members the studio has no screen for stay
    /// as in `base`), with the session's MIDI bindings. `automaticRoute`: the route Hecate got from
    /// detection at start; while Hecate's route is still that one, the file keeps `auto`.
    public func currentSettings(over base: ProsperoSettings, automaticRoute: OutputRoute?) -> ProsperoSettings {
        var s = base
        _ = withInstrument(HecateStudioInstrument.id) { instrument in
            guard let hecate = instrument as? HecateStudioInstrument else { return }
            var h = hecate.settings
            h.muted = false
            s.hecate = h
            s.hecateRouteIsAutomatic = automaticRoute.map { $0 == h.route } ?? false
        }
        _ = withInstrument(HandsStudioInstrument.id) { instrument in
            if let hands = instrument as? HandsStudioInstrument { s.hands = hands.controller.settings }
        }
        s.midi = midiBindings
        return s
    }
}
