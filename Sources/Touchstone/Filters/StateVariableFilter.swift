/// A trapezoidal, zero-delay-feedback state-variable filter (Simper / Zavalishin TPT): low-pass,
/// high-pass, band-pass, notch, peak and all-pass from one structure.
///
/// - Stable and in tune up to 0.49·fs at any Q in 0.1…50, with cutoff and Q modulated every sample.
/// - Magnitude response equals the bilinear-transformed (prewarped) analog prototype; within 0.1 dB of
///   the analog response below fs/4 (StateVariableFilterTests), and within 2e-6 of Faust's `fi.svf` (goldens).
/// - Cutoff and Q are `SmoothedParameter`s in the pitch domain (`.multiplicative`, 20 ms by default).
///   While both are settled the coefficients stay fixed for the whole block (no `tan`); while one moves
///   they are recomputed every sample, which is what keeps sweeps free of zipper noise.
/// - `process(_:)` chooses the response once per block and runs a loop specialised for it;
///   `process(_:as:)` and `processSample(_:as:)` let a voice pick the response at compile time.
///
/// Mono: use two instances, or `StereoStateVariableFilter`, for stereo.
///
///     var lp = StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5)
///     lp.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256))
///     lp.setCutoff(800)                 // glides in pitch over 20 ms
///     lp.process(buffer)
@frozen
public struct StateVariableFilter: MonoProcessor, Sendable {
    /// The response `processSample(_:)` and `process(_:)` produce.
    public private(set) var mode: FilterMode
    @usableFromInline var cutoffSmoother: SmoothedParameter
    @usableFromInline var qSmoother: SmoothedParameter
    @usableFromInline var coefficients: SVFCoefficients
    @usableFromInline var weights: (input: Float, bandConstant: Float, bandPerK: Float, low: Float)
    @usableFromInline var state = SVFState()
    @usableFromInline var inverseSampleRate: Float = 1 / 48_000

    /// - Parameters:
    ///   - mode: the response.
    ///   - cutoff: Hz, 1…0.49·fs (clamped when coefficients are computed).
    ///   - q: 0.1…50 (0.707 = Butterworth).
    ///   - smoothingTime: seconds for cutoff and Q glides (default 0.02; 0 = jump).
    public init(mode: FilterMode = .lowPass, cutoff: Float = 1_000, q: Float = 0.7071, smoothingTime: Double = 0.02) {
        self.mode = mode
        cutoffSmoother = SmoothedParameter(initialValue: cutoff, style: .multiplicative, rampTime: smoothingTime)
        qSmoother = SmoothedParameter(initialValue: q, style: .multiplicative, rampTime: smoothingTime)
        coefficients = SVFCoefficients(cutoff: cutoff, q: q, inverseSampleRate: 1 / 48_000)
        weights = mode.mixWeights
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        inverseSampleRate = Float(1 / spec.sampleRate)
        cutoffSmoother.prepare(sampleRate: spec.sampleRate)
        qSmoother.prepare(sampleRate: spec.sampleRate)
        updateCoefficients(cutoff: cutoffSmoother.current, q: qSmoother.current)
        reset()
    }

    /// Clears the filter memory (silence); parameters stay.
    public mutating func reset() {
        state.reset()
    }

    /// The current (smoothed) cutoff in Hz.
    @inlinable public var cutoff: Float { cutoffSmoother.current }
    /// The current (smoothed) Q.
    @inlinable public var q: Float { qSmoother.current }
    /// The current coefficients.
    @inlinable public var currentCoefficients: SVFCoefficients { coefficients }
    /// The integrator states. Voice loops that render several filters side by side read the state and
    /// `currentCoefficients` once per block while `isSmoothing` is false, run `SVFState.tick` in
    /// registers, and write the state back.
    @inlinable public var channelState: SVFState {
        get { state }
        set { state = newValue }
    }
    /// Whether cutoff or Q is still gliding (coefficients are then recomputed per sample).
    @inlinable public var isSmoothing: Bool { cutoffSmoother.isSmoothing || qSmoother.isSmoothing }

    /// Chooses the response. Switching while sound passes may click on responses with very different
    /// gains (e.g. low-pass to high-pass); the filter state is kept.
    public mutating func setMode(_ newMode: FilterMode) {
        mode = newMode
        weights = newMode.mixWeights
    }

    /// Glides the cutoff to `hz` (1…0.49·fs) over the smoothing time, evenly in pitch.
    public mutating func setCutoff(_ hz: Float) { cutoffSmoother.setTarget(hz) }

    /// Glides Q to `q` (0.1…50) over the smoothing time.
    public mutating func setQ(_ q: Float) { qSmoother.setTarget(q) }

    /// Changes the glide time (seconds, ≥ 0) for later cutoff and Q changes.
    public mutating func setSmoothingTime(_ seconds: Double) {
        cutoffSmoother.setRampTime(seconds)
        qSmoother.setRampTime(seconds)
    }

    /// Sets cutoff (Hz) and Q at once with no smoothing, recomputing the coefficients now. For audio-rate
    /// modulation (an envelope or LFO already smooth), call it every sample: it costs a polynomial tan.
    @inlinable @inline(__always)
    public mutating func setImmediately(cutoff hz: Float, q: Float) {
        cutoffSmoother.snap(to: hz)
        qSmoother.snap(to: q)
        updateCoefficients(cutoff: hz, q: q)
    }

    @inlinable @inline(__always)
    mutating func updateCoefficients(cutoff hz: Float, q: Float) {
        coefficients = SVFCoefficients(cutoff: hz, q: q, inverseSampleRate: inverseSampleRate)
    }

    @inlinable @inline(__always)
    mutating func advanceSmoothing() {
        // Only the moving parameter's part is recomputed: tan for the cutoff, 1/Q for the resonance.
        let cutoffMoves = cutoffSmoother.isSmoothing
        let qMoves = qSmoother.isSmoothing
        if cutoffMoves || qMoves {
            var c = coefficients
            if cutoffMoves { c.g = SVFCoefficients.prewarp(cutoff: cutoffSmoother.next(), inverseSampleRate: inverseSampleRate) }
            if qMoves { c.k = SVFCoefficients.damping(q: qSmoother.next()) }
            c.updateGains()
            coefficients = c
        }
    }

    /// Filters one sample with the current `mode` (a branch-free mix of the three outputs).
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        advanceSmoothing()
        let (v1, v2) = state.tick(input, coefficients)
        let band = weights.bandConstant + weights.bandPerK * coefficients.k
        return weights.input * input + band * v1 + weights.low * v2
    }

    /// Filters one sample with the response `R` chosen at compile time (ignores `mode`).
    @inlinable @inline(__always)
    public mutating func processSample<R: SVFResponse>(_ input: Float, as response: R.Type) -> Float {
        advanceSmoothing()
        let (v1, v2) = state.tick(input, coefficients)
        return R.output(input: input, band: v1, low: v2, k: coefficients.k)
    }

    /// Filters `buffer` in place with the response `R`: fixed coefficients while settled, per-sample
    /// coefficients while cutoff or Q glide. (Not marked `@_noAllocation`: the check rejects unspecialised
    /// generics; `process(_:)` checks each specialisation.)
    @inlinable
    public mutating func process<R: SVFResponse>(_ buffer: UnsafeMutableBufferPointer<Float>, as response: R.Type) {
        if isSmoothing {
            var filter = self         // local copy: stores through `buffer` could alias `self`
            filter.processGliding(buffer, as: R.self)
            self = filter
        } else {
            let c = coefficients
            var s = state
            for i in buffer.indices {
                let x = buffer[i]
                let (v1, v2) = s.tick(x, c)
                buffer[i] = R.output(input: x, band: v1, low: v2, k: c.k)
            }
            state = s
        }
        // A non-finite input would poison the states for ever: recover at the block boundary.
        if !(state.ic1.isFinite && state.ic2.isFinite) { state.reset() }
    }

    /// `processSample(_:as:)` over `buffer` while cutoff or Q glide, with the same output bit for bit: four
    /// samples' coefficients at a time in vector lanes (the smoothers step serially as before; the tangent and
    /// the divisions, which do not depend on the filter's state, run four wide), then the recursion over them.
    /// A glide that ends inside four samples leaves its last value, the target, in the later lanes, which is
    /// what the per-sample path keeps too. Pinned by `StateVariableFilterTests.glidingBlockPathMatchesPerSamplePath`.
    @inlinable @inline(__always)
    mutating func processGliding<R: SVFResponse>(_ buffer: UnsafeMutableBufferPointer<Float>, as response: R.Type) {
        guard let x = buffer.baseAddress else { return }
        let count = buffer.count
        var i = 0
        while i &+ 4 <= count && isSmoothing {
            let lanes = nextFourCoefficients()
            var s = state
            for lane in 0..<4 {
                let c = lanes[lane]
                let input = x[i &+ lane]
                let (v1, v2) = s.tick(input, c)
                x[i &+ lane] = R.output(input: input, band: v1, low: v2, k: c.k)
            }
            state = s
            i &+= 4
        }
        while i < count {
            x[i] = processSample(x[i], as: R.self)
            i &+= 1
        }
    }

    /// Filters `buffer` in place with the current `mode`, chosen once for the block.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        switch mode {
        case .lowPass: process(buffer, as: LowPassResponse.self)
        case .highPass: process(buffer, as: HighPassResponse.self)
        case .bandPass: process(buffer, as: BandPassResponse.self)
        case .bandPassNormalized: process(buffer, as: NormalizedBandPassResponse.self)
        case .notch: process(buffer, as: NotchResponse.self)
        case .peak: process(buffer, as: PeakResponse.self)
        case .allPass: process(buffer, as: AllPassResponse.self)
        }
    }
}
