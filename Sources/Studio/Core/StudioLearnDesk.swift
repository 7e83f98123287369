import Ariel
import InstrumentSettings

/// MIDI learn in the studio: the armed control, the learned controllers and the `learn` actions pages
/// send (`<id>.learn` with a control path, `<id>.learnCancel`, `<id>.learnClear` with a path or null),
/// and MIDI in: a control change completes an armed learn, or moves the controls bound to it through
/// their instruments' own `set` (validated and smoothed as a page's slider is). It returns the `changed`
/// messages for the pages; the session broadcasts them. A value inside the session's lock, because the
/// learn state travels in the instruments' `state` and the moves go into the instruments
/// (``StudioSessionState`` says why).
struct StudioLearnDesk {
    var learn = MIDIControlLearn()

    /// The control waiting for a controller (`hecate.bpm`), nil when none is armed.
    var armedControl: String? { learn.armedControl }

    /// The learned controllers (saved with the settings); setting them replaces every binding and disarms.
    var bindings: [MIDIBinding<String>] {
        get { learn.bindings }
        set { learn = MIDIControlLearn(bindings: newValue) }
    }

    /// A page's action `path` on `stage`'s active instrument: the `changed` with the instrument's new learn
    /// state when `path` is a learn action, nil when it is the instrument's own action. Throws, as any action
    /// does, for an unknown or inactive instrument, and for a control that cannot be learned.
    mutating func action(_ path: String, value: StudioValue, on stage: StudioStage) throws(StudioError) -> StudioServerMessage? {
        let (index, name) = try stage.target(of: path)
        let id = stage.instruments[index].id
        guard try action(name, value: value, path: path, instrument: id) else { return nil }
        return .changed(instrument: id, changes: ["learn": json(instrument: id)])
    }

    /// A message from MIDI in: completes an armed learn, or moves the bound controls on `stage`'s instruments
    /// (active or not). The `changed` messages, in order: the learned binding's, then each move's.
    mutating func receive(_ message: MIDIMessage, on stage: inout StudioStage) -> [StudioServerMessage] {
        var out: [StudioServerMessage] = []
        let (learned, moves) = receive(message)
        if let learned, let index = stage.index(owning: learned) {
            let id = stage.instruments[index].id
            out.append(.changed(instrument: id, changes: ["learn": json(instrument: id)]))
        }
        for (path, value) in moves {
            guard let index = stage.index(owning: path),
                  let changes = try? stage.instruments[index].apply(set: path, value: .number(value)), !changes.isEmpty else { continue }
            out.append(.changed(instrument: stage.instruments[index].id, changes: changes))
        }
        return out
    }

    /// The learn state of instrument `id` (armed control, bindings, learnable controls) for its `state`.
    func json(instrument id: String) -> StudioValue { learn.json(instrument: id) }

    /// A learn action `name` for instrument `id` (`path` is the whole action path, for errors). False when
    /// `name` is not a learn action (the instrument's own action then).
    private mutating func action(_ name: Substring, value: StudioValue, path: String, instrument id: String) throws(StudioError) -> Bool {
        func control(_ v: StudioValue) throws(StudioError) -> String {
            guard let text = v.string, text.utf8.count <= 128 else { throw .badValue(path, expected: "a control path such as \(id).bpm") }
            let full = text.hasPrefix(id + ".") ? text : id + "." + text
            guard MIDILearnableControl.named(full) != nil else {
                throw .outOfRange(path, range: MIDILearnableControl.all.map(\.path).filter { $0.hasPrefix(id + ".") }.joined(separator: ", "))
            }
            return full
        }
        switch name {
        case "learn":
            let full = try control(value)
            do throws(ProsperoSettingsError) { try learn.arm(full) } catch { throw .badValue(path, expected: error.reason) }
        case "learnCancel": learn.cancel()
        case "learnClear":
            if value.isNull {
                for b in learn.bindings where b.parameter.hasPrefix(id + ".") { learn.clear(b.parameter) }
            } else {
                learn.clear(try control(value))
            }
        default: return false
        }
        return true
    }

    /// A message from MIDI in: the control path a completed learn bound (nil when none), and the controls
    /// that bound controllers move with their values.
    private mutating func receive(_ message: MIDIMessage) -> (learned: String?, moves: [(path: String, value: Double)]) {
        let (learned, moves) = learn.receive(message)
        return (learned?.parameter, moves)
    }
}
