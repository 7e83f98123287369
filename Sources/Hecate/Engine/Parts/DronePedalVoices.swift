import Touchstone

/// The voices under the chord: the sub-bass (chord root an octave down, sine, at the root's level),
/// the bass voice (chord root in 55…110 Hz, triangle or sine, at the face's bass level smoothed per
/// sample over `DroneSynthEngine.levelSmoothingTime`) and the drone (key root and its fifth, sines,
/// steady under the moving chords).
///
/// The three steady sines run as one set of rotating phasors: lane 0 sub, lane 1 drone root,
/// lane 2 drone fifth (lane 3 stands still).
struct DronePedalVoices {
    var sines = RotatingSineLanes(frequencies: SIMD4(65, 65, 98, 0))
    var bass = BandLimitedOscillator(waveform: .triangle, frequency: 65)
    /// The bass level's target (0…1) and its smoothed value.
    var bassTarget: Float = 0
    private(set) var bassLevel: Float = 0

    /// One sample of every voice.
    struct Sample {
        /// The sub-bass sine, full scale (the caller applies the root's level and the mix gain).
        var sub: Float
        /// The bass voice at its smoothed level.
        var bass: Float
        /// The drone: root + 0.7 × fifth.
        var drone: Float
    }

    mutating func prepare(_ spec: ProcessSpec) {
        sines.prepare(spec)
        bass.prepare(spec)
    }

    /// Oscillators from their starting phases; the bass level on its target.
    mutating func reset() {
        sines.reset()
        bass.reset()
        bassLevel = bassTarget
    }

    /// Sine for a sine pack, triangle otherwise (a band-limited triangle keeps the bass round).
    mutating func setShape(_ waveform: OscillatorWaveform) {
        bass.waveform = waveform == .sine ? .sine : .triangle
    }

    /// Sub, drone root and drone fifth frequencies (lanes 0, 1, 2; Hz) and the bass voice's (Hz).
    @inline(__always)
    mutating func setFrequencies(sines hz: SIMD4<Float>, bass bassHz: Float) {
        sines.setFrequencies(hz)
        bass.setFrequency(bassHz)
    }

    /// One run of `count` samples added to the tone banks' run: `voice[n]` += sub × the root's level
    /// (`rootLevels[n]`) + bass, all × the run's mixing gains and breath; the drone into `drone`.
    mutating func render(
        into voice: UnsafeMutablePointer<Float>, drone: UnsafeMutablePointer<Float>, rootLevels: UnsafePointer<Float>,
        count: Int, gains: DroneRunGains, levelCoefficient: Float
    ) {
        let subLevelGain = gains.subLevelGain, bassLevelGain = gains.bassLevelGain, droneGain = gains.droneGain
        let bassIsSine = bass.waveform == .sine
        var voices = self
        for n in 0..<count {
            let low = voices.next(levelCoefficient: levelCoefficient, bassIsSine: bassIsSine)
            var v = voice[n]
            v += low.sub * rootLevels[n] * subLevelGain
            v += low.bass * bassLevelGain
            voice[n] = v * gains.breathGain(at: n)
            drone[n] = low.drone * droneGain
        }
        self = voices
    }

    /// One sample; `levelCoefficient` is the per-sample one-pole coefficient of the bass level, and
    /// `bassIsSine` the bass shape, read once per run so the branch stays out of the oscillator.
    @inline(__always)
    mutating func next(levelCoefficient: Float, bassIsSine: Bool) -> Sample {
        bassLevel = rtOnePole(bassLevel, target: bassTarget, coefficient: levelCoefficient)
        let pedals = sines.nextSample()
        let bassSample = (bassIsSine ? bass.nextSine() : bass.nextTriangle()) * bassLevel
        return Sample(sub: pedals[0], bass: bassSample, drone: pedals[1] + 0.7 * pedals[2])
    }
}
