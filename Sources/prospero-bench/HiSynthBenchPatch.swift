import HiSynth

/// The HiSynth benchmark patch (issue 13): Subway Lead (saw + square an octave up, LP at 3152 Hz) with
/// every LFO routed to all four targets and all four effects on.
enum HiSynthBenchPatch {
    static var settings: HiSynthSettings {
        var s = HiSynthSettings(preset: HiSynthPreset.factory.first { $0.name == "Subway Lead" } ?? HiSynthPreset.factory[0])
        let waveforms: [HiSynthWaveform] = [.sine, .square, .rsaw]
        for i in 0..<3 {
            s[lfo: i] = .init(waveform: waveforms[i], depth: 0.3, speed: 2.5 + 2 * Double(i), phase: 0.25 * Double(i),
                              pitch: true, amplitude: true, filterLow: true, filterHigh: true)
        }
        s.highPass.cutoff = 60
        s.effects.decimatorOn = true
        s.effects.decimatorRate = 5
        s.effects.driveOn = true
        s.effects.delayOn = true
        s.effects.reverbOn = true
        s.effects.reverbVariant = .largeHall
        s.effects.reverbMix = 0.3
        return s
    }
}
