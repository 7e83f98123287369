import Ariel
import Enobarbus
import LiveHost


/// A live instrument with MIDI learn and learned controllers: forwards everything to `base`, and at
/// each tick of the live host (its thread, the one that sends the engine's commands) pumps the control
/// changes JACK received on `midi_in` through its ``MIDILearnPump``.
final class LiveLearning: LiveInstrument, @unchecked Sendable {
    let base: any LiveInstrument
    private let pump: MIDILearnPump

    init(base: any LiveInstrument, bindings: [MIDIBinding<String>], learning: [String],
         drain: @escaping ((MIDIMessage) -> Void) -> Void, apply: @escaping (String, Double) -> Void,
         announce: @escaping (String) -> Void) {
        self.base = base
        pump = MIDILearnPump(bindings: bindings, learning: learning, drain: drain, apply: apply, announce: announce)
    }

    /// The bindings now (the file's, `--map`'s and the learned ones).
    var bindings: [MIDIBinding<String>] { pump.bindings }

    func receive(_ frames: [TrackingFrame], at time: Double) { base.receive(frames, at: time) }
    func receive(_ frames: [TrackingFrame], from sender: InputSender?, at time: Double) { base.receive(frames, from: sender, at: time) }
    func receiveControls(_ outputs: [Float], at time: Double) { base.receiveControls(outputs, at: time) }
    func finish(at time: Double) { base.finish(at: time) }
    func statusLine(at time: Double) -> String? { base.statusLine(at: time) }

    func advance(to time: Double) {
        base.advance(to: time)
        pump.pump()
    }
}
