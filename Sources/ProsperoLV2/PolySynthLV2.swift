import Ariel

/// The poly synth (`PolySynth`, the engine of `prospero render` and `play`) as an LV2 instrument: MIDI
/// from the host (notes, velocity, pitch bend, CC 1 mod wheel, sustain), every setting a control port.
/// A moved port applies the new settings, which the synth glides to as in our commands; the first `run`
/// after `activate` starts from the ports' settings at once.
public final class PolySynthLV2: LV2Plugin {
    public static let uri = "urn:prospero:lv2:polysynth"
    /// Voices allocated per instance (the `polyphony` port chooses how many may sound).
    public static let capacity = 32

    public override class var info: LV2PluginInfo { description }

    static let description = LV2PluginInfo(
        uri: uri, name: "Prospero Poly Synth", bundleName: "prospero-polysynth.lv2",
        ports: LV2PluginInfo.standardPorts() + PolySynthLV2Controls.all.map(\.port))

    let driver: LV2EngineDriver<PolySynth>
    let controls: LV2ControlValues
    let table = PolySynthLV2Controls.all
    var settings = PolySynthSettings()
    /// Set by `activate`: the next `run` starts the synth from the ports' settings at once.
    var starting = true

    public required init(sampleRate: Double, uris: LV2URIDs) {
        controls = LV2ControlValues(PolySynthLV2Controls.all.map(\.control))
        driver = LV2EngineDriver(engine: PolySynth(capacity: Self.capacity, settings: settings), sampleRate: sampleRate)
        super.init(sampleRate: sampleRate, uris: uris)
    }

    public override func activate() { starting = true }

    public override func run(frameCount: Int) {
        guard let left = ports.floats(1), let right = ports.floats(2) else { return }
        var moved = false
        controls.update(from: ports, first: LV2PluginInfo.firstControlIndex) { i, value in
            table[i].write(&settings, controls.controls[i].clamp(value))
            moved = true
        }
        let engine = driver.engine
        if moved { engine.handle(.apply(settings)) }
        if starting {
            // Silence, and every setting at its value without a glide (as `prospero render`'s synth starts).
            engine.reset()
            starting = false
        }
        let midiEvent = uris.midiEvent
        driver.run(frameCount: frameCount, left: left, right: right, events: ports.raw(0).map { UnsafeRawPointer($0) }) { type, body, size in
            guard type == midiEvent, let message = LV2AtomSequence.midiMessage(body, size: size) else { return }
            engine.handle(midi: message)
        }
        ports.floats(3)?.pointee = Float(engine.latencySamples)
    }
}
