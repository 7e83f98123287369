extension HiSynthSettings {
    /// The engine settings for `preset`, every value clamped with the range the preset model declares
    /// for it (`HiSynthPreset.Oscillator.levelRange`, `Envelope.attackRange`, …); a non-finite value
    /// (which the codec never produces) takes the original's start-up value.
    ///
    /// Two values keep a meaning outside their UI range, as in the original: a filter cutoff below the
    /// 10 Hz lower bound (ten factory presets store 0) still runs the filter at 10 Hz but scales the LFO
    /// offsets by the stored value (0: no modulation); the reverb's size is rounded to a step 1…3.
    /// Percentages (delay feedback and mix, drive and decimator mix) become fractions 0…1.
    public init(preset: HiSynthPreset) {
        self.init()
        func clamp(_ v: Float16, _ range: ClosedRange<Float>, _ fallback: Float) -> Float {
            let x = Float(v)
            return x.isFinite ? min(max(x, range.lowerBound), range.upperBound) : fallback
        }
        typealias O = HiSynthPreset.Oscillator
        for i in 0..<min(2, preset.oscillators.count) {
            let o = preset.oscillators[i]
            self[layer: i] = Layer(waveform: o.waveform, level: clamp(o.level, O.levelRange, 0.75), pitch: clamp(o.pitch, O.pitchRange, 0))
        }
        typealias E = HiSynthPreset.Envelope
        let e = preset.envelope
        envelope = Envelope(
            attack: Double(clamp(e.attack, E.attackRange, 0)), decay: Double(clamp(e.decay, E.decayRange, 0.5)),
            sustain: Double(clamp(e.sustain, E.sustainRange, 1)), release: Double(clamp(e.release, E.releaseRange, 0.05)))
        typealias F = HiSynthPreset.Filter
        func filter(_ f: F, _ fallback: Float) -> Filter {
            // The base may sit below the range (0 = no LFO effect); the filter clamps what it runs at.
            Filter(cutoff: clamp(f.cutoff, F.baseCutoffRange, fallback), resonance: clamp(f.resonance, F.resonanceRange, 0))
        }
        lowPass = filter(preset.filters.lowPass, 22_000)
        highPass = filter(preset.filters.highPass, 0)
        typealias L = HiSynthPreset.LFO
        for i in 0..<min(3, preset.lfos.count) {
            let l = preset.lfos[i]
            self[lfo: i] = LFO(
                waveform: l.waveform, depth: clamp(l.depth, L.depthRange, 0), speed: Double(clamp(l.speed, L.speedRange, 2)),
                phase: Double(clamp(l.phase, L.phaseRange, 0)),
                pitch: l.pitch, amplitude: l.amplitude, filterLow: l.filterLow, filterHigh: l.filterHigh)
        }
        let x = preset.effects
        var fx = Effects()
        fx.decimatorOn = x.decimator.on
        fx.decimatorRate = clamp(x.decimator.rate, HiSynthPreset.Decimator.rateRange, 20)
        fx.decimatorMix = clamp(x.decimator.mix, HiSynthPreset.Decimator.mixRange, 50) / 100
        fx.driveOn = x.drive.on
        fx.driveGain = clamp(x.drive.gain, HiSynthPreset.Drive.gainRange, 10)
        fx.driveMix = clamp(x.drive.mix, HiSynthPreset.Drive.mixRange, 50) / 100
        fx.delayOn = x.delay.on
        fx.delayFeedback = clamp(x.delay.feedback, HiSynthPreset.Delay.feedbackRange, 50) / 100
        fx.delayTime = clamp(x.delay.time, HiSynthPreset.Delay.timeRange, 0.5)
        fx.delayMix = clamp(x.delay.mix, HiSynthPreset.Delay.mixRange, 50) / 100
        fx.reverbOn = x.reverb.on
        fx.reverbVariant = HiSynthReverbVariant.variant(
            typeCode: Int(x.reverb.type.rawValue), size: Double(clamp(x.reverb.size, HiSynthPreset.Reverb.sizeRange, 2)))
        fx.reverbMix = clamp(x.reverb.mix, HiSynthPreset.Reverb.mixRange, 1)
        effects = fx
    }
}
