import Ariel
import InstrumentSettings

/// MIDI learn in the studio: the armed control, the learned controllers and the `learn` actions pages
/// send (`<id>.learn` with a control path, `<id>.learnCancel`, `<id>.learnClear` with a path or null).
/// It decides what a control change means (a binding completed, controls moved); the session applies
/// the moves through the instruments' own `set` and tells the pages. A value inside the session's lock.
struct StudioLearnDesk {
    var learn = MIDIControlLearn()

    /// The learn state of instrument `id` (armed control, bindings, learnable controls) for its `state`.
    func json(instrument id: String) -> StudioValue { learn.json(instrument: id) }

    /// A learn action `name` for instrument `id` (`path` is the whole action path, for errors). False when
    /// `name` is not a learn action (the instrument's own action then).
    mutating func action(_ name: Substring, value: StudioValue, path: String, instrument id: String) throws(StudioError) -> Bool {
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
    mutating func receive(_ message: MIDIMessage) -> (learned: String?, moves: [(path: String, value: Double)]) {
        let (learned, moves) = learn.receive(message)
        return (learned?.parameter, moves)
    }
}
