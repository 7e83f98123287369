/// Decodes preset JSON (the layout `HiSynthPreset.json()` writes) through JSONDecoder, which keeps
/// −0.0's sign, reading every field through `HiSynthJSONObject` so errors name the field.
struct HiSynthPresetJSONBox: Decodable {
    let preset: HiSynthPreset

    init(from decoder: any Decoder) throws {
        let root = try HiSynthJSONObject(decoder, path: "")
        let oscillators = try root.objects("oscillators", count: HiSynthPreset.oscillatorCount).map { osc throws(HiSynthPresetError) in
            HiSynthPreset.Oscillator(waveform: try osc.waveform("waveform"), level: try osc.number("level"), pitch: try osc.number("pitch"))
        }
        let env = try root.object("envelope")
        let filters = try root.object("filters")
        let lowPass = try filters.object("lowPass")
        let highPass = try filters.object("highPass")
        let lfos = try root.objects("lfos", count: HiSynthPreset.lfoCount).map { lfo throws(HiSynthPresetError) in
            HiSynthPreset.LFO(
                waveform: try lfo.waveform("waveform"), depth: try lfo.number("depth"), speed: try lfo.number("speed"),
                phase: try lfo.number("phase"), pitch: try lfo.bool("pitch"), amplitude: try lfo.bool("amplitude"),
                filterLow: try lfo.bool("filterLow"), filterHigh: try lfo.bool("filterHigh"))
        }
        let effects = try root.object("effects")
        let reverb = try effects.object("reverb")
        let delay = try effects.object("delay")
        let decimator = try effects.object("decimator")
        let drive = try effects.object("drive")
        preset = HiSynthPreset(
            name: try root.string("name"),
            oscillators: oscillators,
            envelope: HiSynthPreset.Envelope(
                attack: try env.number("attack"), decay: try env.number("decay"),
                sustain: try env.number("sustain"), release: try env.number("release")),
            filters: HiSynthPreset.Filters(
                lowPass: HiSynthPreset.Filter(cutoff: try lowPass.number("cutoff"), resonance: try lowPass.number("resonance")),
                highPass: HiSynthPreset.Filter(cutoff: try highPass.number("cutoff"), resonance: try highPass.number("resonance"))),
            lfos: lfos,
            effects: HiSynthPreset.Effects(
                reverb: HiSynthPreset.Reverb(
                    on: try reverb.bool("on"), size: try reverb.number("size"), type: try reverb.reverbType("type"), mix: try reverb.number("mix")),
                delay: HiSynthPreset.Delay(
                    on: try delay.bool("on"), feedback: try delay.number("feedback"), time: try delay.number("time"), mix: try delay.number("mix")),
                decimator: HiSynthPreset.Decimator(on: try decimator.bool("on"), rate: try decimator.number("rate"), mix: try decimator.number("mix")),
                drive: HiSynthPreset.Drive(on: try drive.bool("on"), gain: try drive.number("gain"), mix: try drive.number("mix"))))
    }
}
