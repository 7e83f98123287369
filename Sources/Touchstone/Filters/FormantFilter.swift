/// A two-formant vowel filter: the input through two parallel band-passes (F1 and F2, each 0 dB at
/// its centre) mixed with the dry signal, as in Hecate's signal chain.
///
/// Built on `StateVariableFilter` (normalized band-pass). Centre frequencies and Q glide in pitch over
/// the smoothing time (default 30 ms), the dry/F1/F2 gains glide linearly, so a face or hand can sweep
/// the vowel continuously without zipper noise.
///
///     var formant = FormantFilter(vowel: .a, q: 8, mix: (dry: 0.3, f1: 1, f2: 0.7))
///     formant.prepare(spec)
///     formant.setVowel(.i)               // glides to F1 270 Hz, F2 2290 Hz
///     formant.process(buffer)
@frozen
public struct FormantFilter: MonoProcessor, Sendable {
    @usableFromInline var first: StateVariableFilter
    @usableFromInline var second: StateVariableFilter
    @usableFromInline var dryGain: SmoothedParameter
    @usableFromInline var firstGain: SmoothedParameter
    @usableFromInline var secondGain: SmoothedParameter

    /// - Parameters:
    ///   - vowel: the starting formants.
    ///   - q: Q of both band-passes, 0.1…50 (about 5…12 sounds vocal).
    ///   - mix: linear gains of dry, F1 and F2 outputs (0…1 typical, any finite value accepted).
    ///   - smoothingTime: seconds for every glide (default 0.03).
    public init(vowel: Vowel = .a, q: Float = 8, mix: (dry: Float, f1: Float, f2: Float) = (0, 1, 1), smoothingTime: Double = 0.03) {
        first = StateVariableFilter(mode: .bandPassNormalized, cutoff: vowel.f1, q: q, smoothingTime: smoothingTime)
        second = StateVariableFilter(mode: .bandPassNormalized, cutoff: vowel.f2, q: q, smoothingTime: smoothingTime)
        dryGain = SmoothedParameter(initialValue: mix.dry, style: .linear, rampTime: smoothingTime)
        firstGain = SmoothedParameter(initialValue: mix.f1, style: .linear, rampTime: smoothingTime)
        secondGain = SmoothedParameter(initialValue: mix.f2, style: .linear, rampTime: smoothingTime)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        first.prepare(spec)
        second.prepare(spec)
        dryGain.prepare(sampleRate: spec.sampleRate)
        firstGain.prepare(sampleRate: spec.sampleRate)
        secondGain.prepare(sampleRate: spec.sampleRate)
    }

    public mutating func reset() {
        first.reset()
        second.reset()
    }

    /// Whether a formant, a Q or a mix gain is still gliding.
    @inlinable public var isSmoothing: Bool {
        first.isSmoothing || second.isSmoothing || dryGain.isSmoothing || firstGain.isSmoothing || secondGain.isSmoothing
    }

    /// Current (smoothed) F1 and F2 centre frequencies in Hz.
    public var formants: (f1: Float, f2: Float) { (first.cutoff, second.cutoff) }
    /// Current (smoothed) dry, F1 and F2 gains.
    public var mix: (dry: Float, f1: Float, f2: Float) { (dryGain.current, firstGain.current, secondGain.current) }

    /// Glides both formants to `vowel`'s (Peterson & Barney) frequencies.
    public mutating func setVowel(_ vowel: Vowel) {
        setFormants(f1: vowel.f1, f2: vowel.f2)
    }

    /// Glides the formants to `f1` and `f2` Hz (1…0.49·fs each).
    public mutating func setFormants(f1: Float, f2: Float) {
        first.setCutoff(f1)
        second.setCutoff(f2)
    }

    /// Glides both band-passes' Q to `q` (0.1…50).
    public mutating func setQ(_ q: Float) {
        first.setQ(q)
        second.setQ(q)
    }

    /// Glides F1 and F2 Q separately (0.1…50 each).
    public mutating func setQ(f1 q1: Float, f2 q2: Float) {
        first.setQ(q1)
        second.setQ(q2)
    }

    /// Glides the dry, F1 and F2 output gains (linear amplitude).
    public mutating func setMix(dry: Float, f1: Float, f2: Float) {
        dryGain.setTarget(dry)
        firstGain.setTarget(f1)
        secondGain.setTarget(f2)
    }

    /// Filters one sample.
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        let y1 = first.processSample(input, as: NormalizedBandPassResponse.self)
        let y2 = second.processSample(input, as: NormalizedBandPassResponse.self)
        return dryGain.next() * input + firstGain.next() * y1 + secondGain.next() * y2
    }

    /// Filters `buffer` in place.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        if isSmoothing {
            var filter = self         // local copy: stores through `buffer` could alias `self`
            for i in buffer.indices { buffer[i] = filter.processSample(buffer[i]) }
            self = filter
        } else {
            // Settled: fixed coefficients and gains, both states in registers. The two band-passes tick side by
            // side in lanes 0 and 1 of one vector: `SVFState.tick`'s operations per lane, so the same bits, at
            // about half the instructions of two scalar ticks.
            let c1 = first.currentCoefficients, c2 = second.currentCoefficients
            var lanes = SVFStateLanes(c1, first.channelState, c2, second.channelState)
            let k = SIMD4<Float>(c1.k, c2.k, 0, 0)
            let dry = dryGain.current, g1 = firstGain.current, g2 = secondGain.current
            for i in buffer.indices {
                let x = buffer[i]
                let bands = k * lanes.tick(SIMD4(repeating: x)).band  // NormalizedBandPassResponse.output
                buffer[i] = dry * x + g1 * bands[0] + g2 * bands[1]
            }
            first.channelState = lanes.state(0)
            second.channelState = lanes.state(1)
        }
        if !(first.state.ic1.isFinite && first.state.ic2.isFinite) { first.reset() }
        if !(second.state.ic1.isFinite && second.state.ic2.isFinite) { second.reset() }
    }
}
