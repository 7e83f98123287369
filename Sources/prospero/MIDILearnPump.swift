import Ariel
import InstrumentSettings
import Synchronization

/// MIDI learn and learned controllers on a live command: while `--learn` controls wait, the next
/// controller moved on JACK `midi_in` binds to the first of them (printed); afterwards the bound
/// controllers move their controls through `apply` (which sends the engine's smoothed commands).
/// ``pump()`` runs on the thread that sends the engine's commands (its command ring has one producer).
final class MIDILearnPump: @unchecked Sendable {
    private let drain: ((MIDIMessage) -> Void) -> Void
    private let apply: (String, Double) -> Void
    private let announce: (String) -> Void
    private let state: Mutex<(learn: MIDIControlLearn, waiting: [String])>

    init(bindings: [MIDIBinding<String>], learning: [String],
         drain: @escaping ((MIDIMessage) -> Void) -> Void, apply: @escaping (String, Double) -> Void,
         announce: @escaping (String) -> Void) {
        self.drain = drain
        self.apply = apply
        self.announce = announce
        var learn = MIDIControlLearn(bindings: bindings)
        if let first = learning.first { try? learn.arm(first) }
        state = Mutex((learn, Array(learning.dropFirst())))
        if let first = learning.first { announce("MIDI learn: move a controller on JACK midi_in for \(first)") }
    }

    /// The bindings now (the file's, `--map`'s and the learned ones).
    var bindings: [MIDIBinding<String>] { state.withLock { $0.learn.bindings } }

    /// Takes the control changes received since the last call: a learn completes, bound controls move.
    func pump() {
        drain { message in
            let (learned, moves) = state.withLock { s in
                let result = s.learn.receive(message)
                if result.learned != nil, !s.waiting.isEmpty { try? s.learn.arm(s.waiting.removeFirst()) }
                return result
            }
            if let learned {
                announce("MIDI learn: \(MIDIControlLearn.describe(learned.source)) → \(learned.parameter)  "
                    + ProsperoSettings.bindingText(learned))
                if let next = state.withLock({ $0.learn.armedControl }) {
                    announce("MIDI learn: move a controller on JACK midi_in for \(next)")
                }
            }
            for (path, value) in moves { apply(path, value) }
        }
    }
}
