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
        let index = active.load(ordering: .relaxed)
        if index >= 0 && index < engines.count {
            let engine = engines[index]
            // The period's start frame places what was sent with a due frame (studio touches: arrival + --input-delay).
            let start = midiIn.periodStartFrame
            engine.render(frameCount: frameCount, left: left, right: right, blockStart: start)
            engine.drainMIDI(blockStart: start, frameCount: frameCount) { status, d1, d2, at in
                // Program change and channel pressure carry one data byte.
                switch MIDIShortMessage.dataByteCount(forStatus: status) {
                case 2: _ = midiOut.send(status, d1, d2, atFrame: at)
                case 1: _ = midiOut.send(status, d1, atFrame: at)
                default: _ = midiOut.send(status, atFrame: at)
                }
            }
        }
        tap.push(left: left, right: right, frameCount: frameCount)
    }

    public func stopping(midiOut: inout JACKMIDIOutput) {}

    public var processingLatency: Int {
        let index = active.load(ordering: .relaxed)
        return index >= 0 && index < engines.count ? engines[index].processingLatency : 0
    }
}
