import InstrumentSettings

/// Dispatch onto the instruments: which one is active (shared by every client), controls by path
/// (`<instrument>.<control>`; only the active instrument takes them), selection (the old instrument
/// falls silent), touches and the shared live input. Returns what changed; it sends nothing (the
/// session tells the clients). A value inside the session's lock, so instruments see one call at a time.
struct StudioStage {
    var instruments: [any StudioInstrument]
    private(set) var active: Int?

    init(instruments: [any StudioInstrument], active: Int?) {
        self.instruments = instruments
        self.active = active.flatMap { instruments.indices.contains($0) ? $0 : nil }
    }

    var activeID: String? { active.map { instruments[$0].id } }

    func index(of id: String) -> Int? { instruments.firstIndex { $0.id == id } }

    /// The instrument whose id prefixes `path` (`hecate.bpm` → Hecate), active or not.
    func index(owning path: String) -> Int? { instruments.firstIndex { path.hasPrefix($0.id + ".") } }

    /// `path` = `<instrument>.<control>`: the instrument's index and the control; only the active instrument takes controls.
    func target(of path: String) throws(StudioError) -> (index: Int, control: Substring) {
        let parts = path.split(separator: ".", maxSplits: 1)
        let name = parts.first.map(String.init) ?? ""
        guard let index = index(of: name) else { throw .unknownInstrument(name) }
        guard index == active else { throw StudioError(code: "not_active", message: "select \(name) first", ref: path) }
        return (index, parts.count > 1 ? parts[1] : "")
    }

    /// Makes `id` the active instrument; the old one falls silent at `now`. Its index, and whether it changed.
    mutating func select(_ id: String, now: Double) throws(StudioError) -> (index: Int, changed: Bool) {
        guard let index = index(of: id) else { throw .unknownInstrument(id) }
        guard index != active else { return (index, false) }
        if let old = active { instruments[old].silence(at: now) }
        active = index
        return (index, true)
    }

    /// A `set` or an `action` on the active instrument: its changes, keyed for a `changed` message.
    mutating func apply(_ path: String, value: StudioValue, action: Bool, client: String) throws(StudioError) -> (id: String, changes: [String: StudioValue]) {
        let (index, _) = try target(of: path)
        let changes = action
            ? try instruments[index].apply(action: path, value: value, client: client)
            : try instruments[index].apply(set: path, value: value)
        return (instruments[index].id, changes)
    }

    /// A touch on the active instrument.
    mutating func touch(_ touch: StudioTouch, client: String, now: Double) throws(StudioError) -> (id: String, changes: [String: StudioValue]) {
        guard let a = active else { throw StudioError(code: "not_ready", message: "no instrument is active", ref: "touch") }
        return (instruments[a].id, try instruments[a].touch(touch, client: client, at: now))
    }

    /// A client left: its touch slots are cancelled and the active instrument forgets it. The changes of each step.
    mutating func clientLeft(_ client: String, touches: Set<Int>, now: Double) -> [(id: String, changes: [String: StudioValue])] {
        guard let a = active else { return [] }
        var out: [(String, [String: StudioValue])] = []
        for slot in touches.sorted() {
            if let changes = try? instruments[a].touch(StudioTouch(id: slot, phase: .cancel, x: 0, y: 0, pressure: 0), client: client),
               !changes.isEmpty {
                out.append((instruments[a].id, changes))
            }
        }
        let changes = instruments[a].clientLeft(client, at: now)
        if !changes.isEmpty { out.append((instruments[a].id, changes)) }
        return out
    }

    /// The active instrument's audio time (`clock` replies), if it keeps one.
    func audioTime(now: Double) -> Double? { active.flatMap { (instruments[$0] as? any StudioAudioClock)?.audioTime(now: now) } }

    /// The studio stops or another instrument is chosen: the active one ends every note.
    mutating func silence(at time: Double) {
        if let a = active { instruments[a].silence(at: time) }
    }
}
