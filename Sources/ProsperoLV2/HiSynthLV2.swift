import Ariel
import HiSynth

/// HiSynth as an LV2 instrument: `HiSynthEngine` played by MIDI from the host, every preset field a
/// control port, the 15 factory presets as LV2 presets, and the preset string as its State.
///
/// Ports move the preset this instance plays (`run` writes each port that moved into it and applies the
/// settings the engine derives from it, which the engine glides to as in our own commands; the first
/// `run` after `activate` starts from the ports' values at once, as `prospero hisynth render` starts
/// from its preset). State is the preset string: restoring one and saving again gives the same bytes,
/// whether or not the codec would re-encode it identically, because an unchanged preset saves the string
/// it was restored from. A restored string wins over the ports until a port moves: a host that restores
/// a session sets the ports to the same values, and one that only restores the State keeps its knobs
/// where they were without overriding the preset.
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
    /// The ports' values as the last `run` saw them (a port moves when it differs from its value there).
    let controls: LV2ControlValues
    /// The value of every control the preset played holds (restored, or the port's once it moved), in
    /// port order: what `saveState` saves.
    let played: UnsafeMutableBufferPointer<Float>
    let table = HiSynthLV2Controls.all
    /// The preset played, moved by the ports on the audio thread (only in place: never copied there).
    var preset: HiSynthPreset
    /// The preset's name and the string it was restored from, for `saveState` (never read by `run`).
    var restored: (name: String, string: String?)
    /// Set by `activate`: the next `run` starts the engine from the current preset at once.
    var starting = true

    public required init(sampleRate: Double, uris: LV2URIDs) {
        let start = HiSynthLV2Controls.defaultPreset
        preset = start
        restored = (start.name, HiSynthPreset.factoryStrings[0])
        controls = LV2ControlValues(HiSynthLV2Controls.all.map(\.control))
        played = .allocate(capacity: max(1, table.count))
        played.initialize(repeating: 0)
        for i in 0..<table.count { played[i] = table[i].read(start) }
        driver = LV2EngineDriver(engine: HiSynthEngine(preset: start), sampleRate: sampleRate)
        super.init(sampleRate: sampleRate, uris: uris)
    }

    deinit { played.deallocate() }

    public override func activate() { starting = true }

    public override func run(frameCount: Int) {
        guard let left = ports.floats(1), let right = ports.floats(2) else { return }
        var moved = false
        controls.update(from: ports, first: LV2PluginInfo.firstControlIndex) { i, value in
            let v = controls.controls[i].clamp(value)
            played[i] = v
            table[i].write(&preset, v)
            moved = true
        }
        if moved { driver.engine.handle(.apply(HiSynthSettings(preset: preset))) }
        if starting {
            // Silence, and every setting at its value without a glide (as an engine made with this preset).
            driver.engine.reset()
            starting = false
        }
        let engine = driver.engine
        let midiEvent = uris.midiEvent
        driver.run(frameCount: frameCount, left: left, right: right, events: ports.raw(0).map { UnsafeRawPointer($0) }) { type, body, size in
            guard type == midiEvent, let message = LV2AtomSequence.midiMessage(body, size: size) else { return }
            engine.handle(midi: message)
        }
        ports.floats(3)?.pointee = Float(engine.latencySamples)
    }

    /// The values the preset played holds, in port order (a copy: `run` may move them meanwhile).
    func playedValues() -> [Float] { Array(played) }

    /// The preset the played values describe, named as the last restored preset.
    func currentPreset(_ values: [Float]) -> HiSynthPreset {
        var p = HiSynthLV2Controls.defaultPreset
        p.name = restored.name
        for (i, c) in table.enumerated() { c.write(&p, values[i]) }
        return p
    }

    public override func saveState() -> String? {
        let values = playedValues()
        if let string = restored.string, let original = try? HiSynthPreset(string: string),
           HiSynthLV2Controls.values(of: original).map(\.bitPattern) == values.map(\.bitPattern) {
            return string
        }
        return try? currentPreset(values).encoded()
    }

    public override func restoreState(_ string: String) -> Bool {
        guard let decoded = try? HiSynthPreset(string: string) else { return false }
        restored = (decoded.name, string)
        preset = decoded
        for i in 0..<table.count { played[i] = table[i].read(decoded) }
        driver.engine.handle(.apply(HiSynthSettings(preset: decoded)))
        return true
    }
}
