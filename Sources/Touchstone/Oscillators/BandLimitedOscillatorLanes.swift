/// Eight `BandLimitedOscillator`s of one waveform run side by side in SIMD lanes: the same
/// four-point BLEP / two-point BLAMP band-limiting and the same polynomial sine, sample for sample,
/// at a fraction of eight scalar oscillators' cost.
///
/// Why lanes: a chord engine runs many oscillators of one shape (Hecate's 6 tone banks × 3
/// detuned oscillators). Scalar oscillators pay a waveform switch, a call and two well-predicted
/// compares each; lanes pay one vector step for all eight, and the band-limiting polynomials run
/// only in the samples where some lane is within two samples of a jump (a few percent of samples
/// at musical pitches), so the common sample is a naive ramp.
///
/// Each lane has its own phase and frequency (Hz, clamped to 0…0.45·fs like the scalar oscillator);
/// `setFrequencies(_:)` is one multiply and may run every sample, and the phase is continuous.
/// Output per lane is bipolar, nominally −1…1, and matches `BandLimitedOscillator` with the same
/// waveform, frequency and phase to Float rounding (pinned by tests). `.pulse` uses a fixed width per
/// lane (`pulseWidths`, not smoothed) with the DC offset removed, as the scalar pulse does.
///
///     var lanes = BandLimitedOscillatorLanes(waveform: .saw)
///     lanes.prepare(spec)
///     lanes.setFrequencies(SIMD8(110, 165, 220, 0, 0, 0, 0, 0))
///     let y = lanes.nextSample()              // SIMD8<Float>, one sample per lane
@frozen
public struct BandLimitedOscillatorLanes: Sendable {
    // Concrete, not generic over the vector type: a generic version specialised for SIMD8 ran 4×
    // slower (the SIMD protocol's mask and blend defaults did not lower to vector instructions).
    public typealias Vector = SIMD8<Float>


    /// The shape of every lane. Prefer the per-waveform calls in hot loops (no switch per sample).
    public var waveform: Waveform
    /// Pulse width per lane for `.pulse`, 0.01…0.99 of the period (clamped on set).
    public var pulseWidths: Vector {
        get { widths }
        set { widths = newValue.clamped(lowerBound: Vector(repeating: 0.01), upperBound: Vector(repeating: 0.99)) }
    }

    @usableFromInline var phases: Vector
    @usableFromInline var increments = Vector()
    /// 1 / increment, or a huge number for a stopped lane, so the BLEP distance saturates to "far".
    @usableFromInline var inverseIncrements: Vector = Vector(repeating: 1e30)
    @usableFromInline var inverseSampleRate: Float = 1 / 48_000
    @usableFromInline var frequenciesHz: Vector
    @usableFromInline var startPhases: Vector
    @usableFromInline var widths: Vector = Vector(repeating: 0.5)
    /// Some lane runs above fs/4, where the residuals before and after a step overlap.
    @usableFromInline var regionsOverlap = false
    /// `inverseIncrements` and `regionsOverlap` still describe earlier increments
    /// (`setFrequenciesDeferringResiduals`); refreshed before a residual needs them.
    @usableFromInline var residualTermsStale = false

    /// - Parameters:
    ///   - waveform: the shape of all lanes.
    ///   - frequencies: Hz per lane, 0…0.45·fs.
    ///   - phases: starting phase per lane, 0…1 (also restored by `reset()`).
    public init(waveform: Waveform = .saw, frequencies: Vector = Vector(repeating: 440), phases: Vector = Vector()) {
        self.waveform = waveform
        let wrapped = phases - phases.rounded(.down)
        let start = wrapped.replacing(with: 0, where: .!(wrapped .== wrapped) .| (wrapped .>= 1))
        self.startPhases = start
        self.phases = start
        self.frequenciesHz = frequencies
        setFrequencies(frequencies)
    }

    /// Takes the sample rate. No allocation.
    public mutating func prepare(_ spec: ProcessSpec) {
        inverseSampleRate = Float(1 / spec.sampleRate)
        setFrequencies(frequenciesHz)
        reset()
    }

    /// Restores the starting phases.
    public mutating func reset() {
        phases = startPhases
    }

    /// The phase of the next sample per lane, 0…1.
    @inlinable public var phase: Vector { phases }

    /// The current frequencies in Hz per lane (after clamping).
    @inlinable public var frequencies: Vector { increments / inverseSampleRate }

    /// Sets every lane's frequency in Hz (clamped to 0…0.45·fs; NaN becomes 0). Cheap enough per sample.
    /// Transparent (always inlined): marked only `@inline(__always)`, it stayed an out-of-line call in HiSynth's
    /// per-sample pitch loop (5 % of that engine's instructions under callgrind), which also kept the lanes'
    /// state in memory around each call.
    @_transparent
    public mutating func setFrequencies(_ hz: Vector) {
        setFrequenciesDeferringResiduals(hz)
        refreshResidualTerms()
    }

    /// `setFrequencies(_:)` for a pitch moved every sample: the same increments (the same output, bit for
    /// bit), but the reciprocal increments and the fs/4 test the band-limiting residuals use are computed
    /// only in the samples where some lane is near a jump (a few percent at musical pitches), not in every
    /// sample: two vector divisions and a mask reduction per sample in HiSynth's pitch loop.
    @_transparent
    public mutating func setFrequenciesDeferringResiduals(_ hz: Vector) {
        frequenciesHz = hz
        let normalized = hz * inverseSampleRate
        increments = normalized.replacing(with: 0, where: .!(normalized .> 0))
            .replacing(with: BandLimitedOscillator.maximumNormalizedFrequency,
                       where: normalized .> BandLimitedOscillator.maximumNormalizedFrequency)
        residualTermsStale = true
    }

    /// `inverseIncrements` and `regionsOverlap` from the current increments.
    @_transparent @usableFromInline
    mutating func refreshResidualTerms() {
        let clamped = increments
        inverseIncrements = 1 / clamped.replacing(with: 1e-30, where: clamped .< 1e-30)
        regionsOverlap = Self.anyLane(clamped .>= 0.25)
        residualTermsStale = false
    }

    /// Before a residual: the terms it reads, refreshed if a deferred frequency change left them behind.
    @inlinable @inline(__always)
    mutating func prepareResiduals() {
        if residualTermsStale { refreshResidualTerms() }
    }

    /// Jumps every lane's phase (0…1, wrapped). Not band-limited: for note starts, not mid-note.
    @inlinable
    public mutating func resetPhases(to newPhases: Vector) {
        let wrapped = newPhases - newPhases.rounded(.down)
        phases = wrapped.replacing(with: 0, where: .!(wrapped .== wrapped) .| (wrapped .>= 1))
    }

    /// Advances every lane by `count` samples (≥ 0) without output, keeping the phase exactly where
    /// rendering would have left it (to Float rounding), so a silent voice can skip its work and come
    /// back in phase.
    @inlinable
    public mutating func skip(_ count: Int) {
        guard count > 0 else { return }
        let p = phases + increments * Float(count)
        phases = p - p.rounded(.down)
    }

    // MARK: - Band-limiting residuals, all lanes at once

    /// `BandLimitedOscillator.doubledStepResidual` with the distance saturated at 2 samples (where the
    /// residual is 0), so lanes far from a jump contribute exactly nothing.
    @inlinable @inline(__always)
    static func stepResidual(distance: Vector) -> Vector {
        let d = distance.replacing(with: 2, where: distance .> 2)
        let d2 = d * d
        let one = Vector(repeating: 1)
        let cubic: Vector = (2 / 3) * d2 * d
        let quartic: Vector = 0.25 * d2 * d2
        let linear: Vector = (4 / 3) * d
        let near: Vector = one - linear + cubic - quartic
        let e = 2 - d
        let e2 = e * e
        let far = e2 * e2 * (1 / 12)
        return far.replacing(with: near, where: d .< 1)
    }

    /// `BandLimitedOscillator.polyBLEP4` for every lane: the correction to add for an upward step
    /// of 2 at phase 0 (non-zero within two samples of the step).
    @inlinable @inline(__always)
    func blep(_ t: Vector) -> Vector {
        let after = t, before = 1 - t
        if regionsOverlap {
            return Self.stepResidual(distance: before * inverseIncrements) - Self.stepResidual(distance: after * inverseIncrements)
        }
        // Below fs/4 a lane is near one side of the step at most, so one residual per lane will do:
        // after the step it is subtracted, before it added. The nearer side is the smaller of t and
        // 1 − t (exact for t ≥ 0.5, so the minimum picks what a select on t < 0.5 picks), and the sign
        // goes on as a flipped sign bit: for r = +0 that gives −0 where 0 − r gave +0, and adding or
        // subtracting either zero leaves every y the callers hold the same (±1, 2t − 1 or a sum of them,
        // never −0). Two instructions per four lanes instead of eight.
        let isAfter = after .< 0.5
        let nearer = before.replacing(with: after, where: after .< before)
        let residual = Self.stepResidual(distance: nearer * inverseIncrements)
        let flip = SIMD8<UInt32>(repeating: 0).replacing(with: 0x8000_0000, where: isAfter)
        return unsafeBitCast(unsafeBitCast(residual, to: SIMD8<UInt32>.self) ^ flip, to: Vector.self)
    }

    /// Lanes within two samples of phase 0 ≡ 1 (a step there needs its residual).
    @inlinable @inline(__always)
    func nearWrap(_ t: Vector) -> SIMDMask<Vector.MaskStorage> {
        let reach = increments + increments
        return (t .< reach) .| (t .> 1 - reach)
    }

    /// The phase one sample on, wrapped: `p − 1` where `p ≥ 1`, else `p − 0`, which is `p` bit for bit
    /// (a phase is never −0 and a NaN phase stays NaN), so the wrap is a compare, a mask and a
    /// subtraction rather than a blend of two results (three SSE instructions fewer per four lanes).
    @inlinable @inline(__always)
    mutating func advance() {
        let p = phases + increments
        phases = p - Vector(repeating: 0).replacing(with: 1, where: p .>= 1)
    }

    /// Whether any lane of `mask` is set. The standard `any(_:)` reduces through the generic
    /// `SIMD.min()`, which the optimiser sometimes leaves as an out-of-line scalar loop (measured in
    /// Hecate's tone banks: three calls per sample, 6 % of the engine's instructions, depending on
    /// unrelated code elsewhere in the module); folding the halves together is three vector ORs.
    @inlinable @inline(__always)
    static func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
        let lanes = SIMD8<Int32>(repeating: 0).replacing(with: -1, where: mask)
        let four = lanes.lowHalf | lanes.highHalf
        let two = four.lowHalf | four.highHalf
        return (two.x | two.y) != 0
    }

    // MARK: - Per-waveform samples

    /// Next band-limited saw sample per lane (−1 → +1 ramp).
    /// Transparent (always inlined): marked only `@inline(__always)`, it stayed an out-of-line call where
    /// a loop runs two oscillators (the reference patch's saw pass: 25 % of its instructions), with the
    /// lanes' state copied to memory around every call.
    @_transparent
    public mutating func nextSaw() -> Vector { nextSaw(afterDeferredFrequencies: false) }

    /// `nextSaw()`; `afterDeferredFrequencies` (a constant at every call site) refreshes the residual terms
    /// a `setFrequenciesDeferringResiduals(_:)` left behind, in the samples that need them.
    @inlinable @inline(__always)
    public mutating func nextSaw(afterDeferredFrequencies deferred: Bool) -> Vector {
        let t = phases
        var y = 2 * t - 1
        if Self.anyLane(nearWrap(t)) {
            if deferred { prepareResiduals() }
            y -= blep(t)
        }
        advance()
        return y
    }

    /// The expected fraction of samples, 0…1, in which some lane is within two samples of its jump (where
    /// `nextSaw()` computes the residual): 1 − Π(1 − 4·increment) over the lanes, for jumps at no common rhythm.
    /// Above about one half, `nextSawUnbranched()` is the cheaper of the two.
    public var residualSampleFraction: Float {
        var miss: Float = 1
        for lane in 0..<8 { miss *= max(0, 1 - 4 * increments[lane]) }
        return 1 - miss
    }

    /// `nextSaw()` with the band-limiting residual computed in every sample, not only in those where a lane
    /// is near its jump: the same bits (a lane far from its jump gets a residual of exactly ±0). For a group of
    /// lanes whose jumps come often and at no rhythm the branch predicts badly, and computing it always is cheaper.
    @_transparent
    public mutating func nextSawUnbranched() -> Vector {
        let t = phases
        let y = 2 * t - 1 - blep(t)
        advance()
        return y
    }

    /// Next band-limited reverse saw per lane (+1 → −1 ramp).
    @inlinable @inline(__always)
    public mutating func nextReverseSaw() -> Vector {
        -nextSaw()
    }

    /// `nextReverseSaw()`, see `nextSaw(afterDeferredFrequencies:)`.
    @inlinable @inline(__always)
    public mutating func nextReverseSaw(afterDeferredFrequencies deferred: Bool) -> Vector {
        -nextSaw(afterDeferredFrequencies: deferred)
    }

    /// Next band-limited pulse per lane, of width `pulseWidths`, DC removed (swings −2w…2 − 2w).
    @inlinable @inline(__always)
    public mutating func nextPulse() -> Vector { nextPulse(afterDeferredFrequencies: false) }

    /// `nextPulse()`, see `nextSaw(afterDeferredFrequencies:)`.
    @inlinable @inline(__always)
    public mutating func nextPulse(afterDeferredFrequencies deferred: Bool) -> Vector {
        let t = phases
        var u = t - widths
        u = u.replacing(with: u + 1, where: u .< 0)
        return twoSteps(rising: t, falling: u, high: t .< widths, deferred: deferred) - (2 * widths - 1)
    }

    /// Next band-limited square per lane (+1 first half, −1 second half).
    @inlinable @inline(__always)
    public mutating func nextSquare() -> Vector { nextSquare(afterDeferredFrequencies: false) }

    /// `nextSquare()`, see `nextSaw(afterDeferredFrequencies:)`.
    @inlinable @inline(__always)
    public mutating func nextSquare(afterDeferredFrequencies deferred: Bool) -> Vector {
        let t = phases
        // t + 0.5 wrapped, rounded exactly as the scalar square does: near the falling edge the BLEP
        // magnifies the phase's rounding by 1/increment.
        var u = t + 0.5
        u = u.replacing(with: u - 1, where: u .>= 1)
        return twoSteps(rising: t, falling: u, high: t .< 0.5, deferred: deferred)
    }

    /// ±1 with a band-limited rising step where `rising` wraps and a falling one where `falling` wraps.
    @inlinable @inline(__always)
    mutating func twoSteps(rising t: Vector, falling u: Vector, high: SIMDMask<Vector.MaskStorage>, deferred: Bool) -> Vector {
        var y = Vector(repeating: -1).replacing(with: 1, where: high)
        if Self.anyLane(nearWrap(t) .| nearWrap(u)) {
            if deferred { prepareResiduals() }
            y += blep(t)
            y -= blep(u)
        }
        advance()
        return y
    }

    /// Next triangle per lane with PolyBLAMP-rounded corners, in phase with the sine.
    @inlinable @inline(__always)
    public mutating func nextTriangle() -> Vector { nextTriangle(afterDeferredFrequencies: false) }

    /// `nextTriangle()`, see `nextSaw(afterDeferredFrequencies:)`.
    @inlinable @inline(__always)
    public mutating func nextTriangle(afterDeferredFrequencies deferred: Bool) -> Vector {
        let dt = increments
        var q = phases + 0.25
        q = q.replacing(with: q - 1, where: q .>= 1)
        let fromPeak = (q - 0.5).replacing(with: 0.5 - q, where: q .< 0.5)
        var y = 1 - 4 * fromPeak
        if Self.anyLane((q .< dt) .| (q .> 1 - dt) .| (fromPeak .< dt)) {
            if deferred { prepareResiduals() }
            let slopeChange = 8 * dt
            if regionsOverlap {
                y += slopeChange * Self.blampResidual(distance: q * inverseIncrements)
                y += slopeChange * Self.blampResidual(distance: (1 - q) * inverseIncrements)
                y -= slopeChange * Self.blampResidual(distance: fromPeak * inverseIncrements)
            } else {
                // Below fs/4 a lane is near one corner at most: the trough (q ≈ 0 ≡ 1, rounded up) or
                // the peak (q ≈ 0.5, rounded down), whichever is nearer.
                let fromTrough = 0.5 - fromPeak
                let nearPeak = fromPeak .< fromTrough
                let correction = slopeChange * Self.blampResidual(
                    distance: fromTrough.replacing(with: fromPeak, where: nearPeak) * inverseIncrements)
                y += correction.replacing(with: -correction, where: nearPeak)
            }
        }
        advance()
        return y
    }

    /// `(1 − x)³ / 6` below one sample from a corner, 0 from there on.
    @inlinable @inline(__always)
    static func blampResidual(distance: Vector) -> Vector {
        let x = distance.replacing(with: 1, where: distance .> 1)
        let y = 1 - x
        return y * y * y * (1 / 6)
    }

    /// Next sine per lane, sin(2π·phase), with `FastTrigonometry`'s polynomial.
    @inlinable @inline(__always)
    public mutating func nextSine() -> Vector {
        let y = Self.sine(turns: phases)
        advance()
        return y
    }

    /// sin(2π·turns) for turns in 0…1, per lane: `FastTrigonometry.sin(turns:)` without branches.
    @inlinable @inline(__always)
    static func sine(turns: Vector) -> Vector {
        let r = turns.replacing(with: turns - 1, where: turns .> 0.5)
        let pi: Float = 3.14159265358979
        let halfPi: Float = 1.57079632679490
        var x = r * (2 * pi)
        x = x.replacing(with: pi - x, where: x .> halfPi)
        x = x.replacing(with: -pi - x, where: x .< -halfPi)
        let x2 = x * x
        var p = Vector(repeating: -1.0 / 39_916_800)
        p = p * x2 + 1.0 / 362_880
        p = p * x2 - 1.0 / 5_040
        p = p * x2 + 1.0 / 120
        p = p * x2 - 1.0 / 6
        p = p * x2 + 1
        return p * x
    }

    /// Next sample of the current `waveform` per lane (switches on the waveform every call).
    @inlinable
    public mutating func nextSample() -> Vector {
        switch waveform {
        case .sine: nextSine()
        case .triangle: nextTriangle()
        case .saw: nextSaw()
        case .square: nextSquare()
        case .pulse: nextPulse()
        case .reverseSaw: nextReverseSaw()
        }
    }
}

