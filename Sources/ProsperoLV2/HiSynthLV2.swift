import Ariel
import HiSynth

/// HiSynth as an LV2 instrument: `HiSynthEngine` played by MIDI from the host, every preset field a
/// control port, the 15 factory presets as LV2 presets, and the preset string as its State.
///
/// Ports move the preset this instance plays (`run` writes each changed port into it and applies the
/// settings the engine derives from it, which the engine glides to as in our own commands). State is
/// the preset string: restoring one and saving again gives the same bytes, whether or not the codec
/// would re-encode it identically, because an unchanged preset saves the string it was restored from.
public final class HiSynthLV2: LV2Plugin {
    public static let uri = "urn:prospero:lv2:hisynth"
    /// The State property holding the preset string (`atom:String`).
    public static let stateKey = "urn:prospero:lv2:hisynth#preset"

    public override class var info: LV2PluginInfo { description }

    static let description: LV2PluginInfo = {
        let presets = zip(HiSynthPreset.factory, HiSynthPreset.factoryStrings).map { preset, string in
            LV2Preset(
                uri: "\(uri):preset:\(LV2Preset.slug(preset.name))", name: preset.name,
                values: HiSynthLV2Controls.all.map { ($0.symbol, $0.read(preset)) }, state: string)
        }
        return LV2PluginInfo(
            uri: uri, name: "Prospero HiSynth", bundleName: "prospero-hisynth.lv2",
            ports: LV2PluginInfo.standardPorts() + HiSynthLV2Controls.all.map(\.port),
            presets: presets, stateKey: stateKey)
    }()

    let driver: LV2EngineDriver<HiSynthEngine>
    let controls: LV2ControlValues
    let table = HiSynthLV2Controls.all
    /// The preset played, moved by the ports on the audio thread (only in place: never copied there).
    var preset: HiSynthPreset
    /// The preset's name and the string it was restored from, for `saveState` (never read by `run`).
    var restored: (name: String, string: String?)

    public required init(sampleRate: Double, uris: LV2URIDs) {
        let start = HiSynthLV2Controls.defaultPreset
        preset = start
        restored = (start.name, HiSynthPreset.factoryStrings[0])
        controls = LV2ControlValues(HiSynthLV2Controls.all.map(\.control))
        for i in 0..<controls.count { controls[i] = table[i].read(start) }
        driver = LV2EngineDriver(engine: HiSynthEngine(preset: start), sampleRate: sampleRate)
        super.init(sampleRate: sampleRate, uris: uris)
    }

    public override func activate() { driver.engine.reset() }

    public override func run(frameCount: Int) {
        guard let left = ports.floats(1), let right = ports.floats(2) else { return }
        var moved = false
        controls.update(from: ports, first: LV2PluginInfo.firstControlIndex) { i, value in
            table[i].write(&preset, controls.controls[i].clamp(value))
            moved = true
        }
        if moved { driver.engine.handle(.apply(HiSynthSettings(preset: preset))) }
        let engine = driver.engine
        let midiEvent = uris.midiEvent
        driver.run(frameCount: frameCount, left: left, right: right, events: ports.raw(0).map { UnsafeRawPointer($0) }) { type, body, size in
            guard type == midiEvent, let message = LV2AtomSequence.midiMessage(body, size: size) else { return }
            engine.handle(midi: message)
        }
        ports.floats(3)?.pointee = Float(engine.latencySamples)
    }

    /// The preset the control values describe, named as the last restored preset.
    func currentPreset() -> HiSynthPreset {
        var p = HiSynthLV2Controls.defaultPreset
        p.name = restored.name
        let values = controls.snapshot()
        for (i, c) in table.enumerated() { c.write(&p, c.control.clamp(values[i])) }
        return p
    }

    public override func saveState() -> String? {
        let p = currentPreset()
        if let string = restored.string, let original = try? HiSynthPreset(string: string),
           HiSynthLV2Controls.values(of: original).map(\.bitPattern) == controls.snapshot().map(\.bitPattern) {
            return string
        }
        return try? p.encoded()
    }

    public override func restoreState(_ string: String) -> Bool {
        guard let decoded = try? HiSynthPreset(string: string) else { return false }
        restored = (decoded.name, string)
        preset = decoded
        for i in 0..<controls.count { controls[i] = table[i].read(decoded) }
        driver.engine.handle(.apply(HiSynthSettings(preset: decoded)))
        return true
    }
}
