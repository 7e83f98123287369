import Ariel
import Enobarbus
import LiveHost
import Studio
import Synchronization

/// A live instrument with MIDI learn and learned controllers: forwards everything to `base`, and at
/// each tick of the live host (its thread, the one that sends the engine's commands) drains the
/// control changes JACK received on `midi_in`: while `--learn` controls wait, the next controller
/// moved binds to the first of them (printed); afterwards the bound controllers move their controls
/// through `apply` (which sends the engine's smoothed commands).
final class LiveLearning: LiveInstrument, @unchecked Sendable {
    let base: any LiveInstrument
    private let drain: ((MIDIMessage) -> Void) -> Void
    private let apply: (String, Double) -> Void
    private let announce: (String) -> Void
    private let state: Mutex<(learn: MIDIControlLearn, waiting: [String])>

    init(base: any LiveInstrument, bindings: [MIDIBinding<String>], learning: [String],
         drain: @escaping ((MIDIMessage) -> Void) -> Void, apply: @escaping (String, Double) -> Void,
         announce: @escaping (String) -> Void) {
        self.base = base
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

    func receive(_ frames: [TrackingFrame], at time: Double) { base.receive(frames, at: time) }
    func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) { base.receive(frames, from: sender, at: time) }
    func receiveControls(_ outputs: [Float], at time: Double) { base.receiveControls(outputs, at: time) }
    func finish(at time: Double) { base.finish(at: time) }
    func statusLine(at time: Double) -> String? { base.statusLine(at: time) }

    func advance(to time: Double) {
        base.advance(to: time)
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
