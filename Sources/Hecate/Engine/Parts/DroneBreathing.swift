import Touchstone

/// The breathing LFO (a slow sine, 0.15 Hz by default, the preset's `breathRate`) that swells the
/// voice by up to the preset's `breathDepth`.
///
/// Read once per control run and drawn as a line between the run's ends: at a fraction of a hertz
/// a 16-sample line is exact to Float rounding, and the LFO costs one step per run, not per sample.
struct DroneBreathing {
    var lfo = LFO(waveform: .sine, rate: .hertz(0.15))
    /// The LFO's value (−1…1) at the start of the next run.
    private var value: Float = 0

    /// The breath over one run: its value at the first sample and the change per sample.
    struct Run {
        var start: Float
        var step: Float
    }

    mutating func prepare(_ spec: ProcessSpec) { lfo.prepare(spec) }

    /// From the LFO's starting phase.
    mutating func reset() {
        lfo.reset()
        value = lfo.value
    }

    /// Breaths per second (Hz).
    mutating func setRate(_ hertz: Double) { lfo.setRate(.hertz(hertz)) }

    /// Advances the LFO over a run of `count` samples (≥ 1) and returns the line through it.
    @inline(__always)
    mutating func startRun(count: Int) -> Run {
        let start = value
        lfo.skip(count)
        value = lfo.value
        return Run(start: start, step: (value - start) / Float(count))
    }
}
