extension PolySynth {
    /// A continuous parameter of `PolySynth`, set with `Command.set(_:_:)` in the units of the
    /// matching `PolySynthSettings` field (values are clamped into its range).
    public enum Parameter: UInt8, Sendable, Hashable, CaseIterable {
        case portamento, attack, decay, sustain, release
        case lfoRate, lfoDepth, velocitySensitivity, pitchBendRange, tuning, stereoSpread
        case toneCutoff
        case fuzzDrive, fuzzLevel, fuzzMix
        case delayTime, delayFeedback, delayMix, delayDamping, delayStereoOffset
        case reverbDecay, reverbSize, reverbDamping, reverbDiffusion, reverbMix
        case outputGain, ceiling
    }

    /// One of the four effects, for `Command.setEffectEnabled`.
    public enum Effect: UInt8, Sendable, Hashable, CaseIterable {
        case tone, fuzz, delay, reverb
    }

    /// Everything another thread can ask of the synth, through `EngineHost.send(_:)`.
    /// Applied at the start of the next block (sample-accurate in `OfflineRenderer`).
    public enum Command: Sendable {
        /// Starts a note (velocity 1…127; 0 is a note-off), channel 0…15.
        case noteOn(note: UInt8, velocity: UInt8, channel: UInt8)
        /// Releases a note (the sustain pedal of its channel may hold it).
        case noteOff(note: UInt8, channel: UInt8)
        /// Any MIDI message, as if it arrived on the MIDI input.
        case midi(MIDIShortMessage)
        /// Sets one continuous parameter (smoothed).
        case set(Parameter, Double)
        /// Waveform of notes started from now on.
        case setWaveform(PolySynthSettings.Waveform)
        /// Vibrato or tremolo (cross-faded over 20 ms).
        case setLFOMode(PolySynthSettings.LFOMode)
        /// Stereo or mono (cross-faded over 20 ms).
        case setStereo(Bool)
        /// Voices that may sound at once, 1…capacity.
        case setPolyphony(Int)
        /// Turns an effect on or off (the bypass is cross-faded over 10 ms).
        case setEffectEnabled(Effect, Bool)
        /// Replaces every setting (continuous ones glide as if set one by one).
        case apply(PolySynthSettings)
        /// Releases every note, sustained ones included (All Notes Off).
        case releaseAll
        /// Fades every voice out within a few milliseconds and clears effect tails' input:
        /// all sound off, pedals and controllers reset.
        case panic
    }
}
