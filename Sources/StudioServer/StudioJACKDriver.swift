import Ariel
import ProsperoJACK
import Studio
import Synchronization

/// The studio's sound through JACK: renders the active instrument's engine (one existential call per
/// period), writes the MIDI it wants to send to `midi_out`, and copies the output into the meter tap.
/// The engines are fixed at start; `select` switches which one renders with one atomic store.
public final class StudioJACKDriver: JACKProcessHandler, @unchecked Sendable {
    public let engines: [any StudioAudioEngine]
    public let tap: StudioMeterTap
    /// Control changes from `midi_in`, drained on a control thread into ``StudioSession/receiveMIDI(_:)``
    /// (MIDI learn and learned controllers).
    public let controlChanges = JACKControlChangeTap()
    private let active = Atomic<Int>(-1)

    public init(engines: [any StudioAudioEngine], active: Int?, tap: StudioMeterTap) {
        self.engines = engines
        self.tap = tap
        self.active.store(active ?? -1, ordering: .relaxed)
    }

    /// Which engine renders (nil: silence). Any thread.
    public func select(_ index: Int?) { active.store(index ?? -1, ordering: .relaxed) }

    public func prepare(sampleRate: Double, maximumFrames: Int) {
        for engine in engines { engine.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames) }
        tap.noteSampleRate(sampleRate)
    }

    public func process(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput) {
        controlChanges.collect(midiIn)
        let index = active.load(ordering: .relaxed)
        if index >= 0 && index < engines.count {
            let engine = engines[index]
            engine.render(frameCount: frameCount, left: left, right: right)
            engine.drainMIDI { status, d1, d2 in _ = midiOut.send(status, d1, d2, atFrame: 0) }
        }
        tap.push(left: left, right: right, frameCount: frameCount)
    }

    public func stopping(midiOut: inout JACKMIDIOutput) {}

    public var processingLatency: Int {
        let index = active.load(ordering: .relaxed)
        return index >= 0 && index < engines.count ? engines[index].processingLatency : 0
    }
}
