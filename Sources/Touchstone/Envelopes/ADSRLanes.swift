/// Eight `ADSR` envelopes stepped side by side in SIMD lanes, for voice loops that render eight voices
/// at once (Ariel's poly synth, the reference patch).
///
/// The lanes are an accelerator, not a second envelope: each lane mirrors one scalar `ADSR`, which stays
/// the owner of the stage, the parameters and every event (gate on/off, kill, parameter changes). Between
/// events every stage is the same step, level·c + b in Double (a sustaining lane is the one-pole glide to
/// its sustain level written that way), so one vector multiply-add steps all eight. When a lane's segment
/// reaches its end, `step()` reports it and the caller hands that lane to `endSegment(_:_:)`, which runs
/// the scalar envelope's own segment change and reloads the lane: the output equals eight scalar
/// envelopes to Double rounding (the sustain glide differs below 1e-7; tested to 2e-5 through attack,
/// decay, sustain, release and kill).
///
///     var lanes = ADSRLanes()
///     for v in 0..<8 { lanes.load(v, from: envelopes[v]) }
///     for i in 0..<n {
///         let ended = lanes.step()
///         if ADSRLanes.anyLane(ended) {
///             for v in 0..<8 where ended[v] { lanes.endSegment(v, &envelopes[v]) }
///         }
///         let gain = lanes.output                    // SIMD8<Float>
///     }
///     for v in 0..<8 { lanes.store(v, into: &envelopes[v]) }
///
/// An idle lane outputs 0 and never ends. Levels run in Double for the same reason as `ADSR`'s: a long
/// segment's end would move by hundreds of samples in Float.
@frozen
public struct ADSRLanes: Sendable {
    public typealias Vector = SIMD8<Float>
    public typealias Levels = SIMD8<Double>
    public typealias Mask = SIMDMask<SIMD8<Int64>>

    @usableFromInline var levels = Levels()
    @usableFromInline var coefficients = Levels()
    @usableFromInline var bases = Levels()
    /// The segment's end times its direction (+1 rising, −1 falling); +∞ for lanes that never end
    /// (idle, sustain), so `level·direction ≥ signedEnd` is the end test for every lane.
    @usableFromInline var signedEnds = Levels(repeating: .infinity)
    @usableFromInline var directions = Levels(repeating: 1)

    /// Eight idle lanes.
    public init() {}

    /// Mirrors `envelope` (its level, stage and coefficients) into `lane` (0…7).
    @inlinable
    public mutating func load(_ lane: Int, from envelope: ADSR) {
        levels[lane] = envelope.levelValue
        switch envelope.stageValue {
        case .idle:
            levels[lane] = 0
            coefficients[lane] = 0
            bases[lane] = 0
            directions[lane] = 1
            signedEnds[lane] = .infinity
        case .sustain:
            // level + c·(S − level) = level·(1 − c) + c·S: the scalar envelope's glide to the sustain level.
            let c = envelope.sustainCoefficient
            coefficients[lane] = 1 - c
            bases[lane] = c * envelope.sustainLevel
            directions[lane] = 1
            signedEnds[lane] = .infinity
        case .attack, .decay, .release, .kill:
            coefficients[lane] = envelope.coefficient
            bases[lane] = envelope.base
            let direction: Double = envelope.rising ? 1 : -1
            directions[lane] = direction
            signedEnds[lane] = envelope.stageEnd * direction
        }
    }

    /// Writes `lane`'s level back into `envelope` (its stage is unchanged: only events change stages,
    /// and they go through the scalar envelope).
    @inlinable
    public func store(_ lane: Int, into envelope: inout ADSR) {
        if envelope.stageValue == .sustain && abs(envelope.sustainLevel - levels[lane]) < 1e-7 {
            envelope.levelValue = envelope.sustainLevel      // the scalar envelope's snap
        } else if envelope.stageValue != .idle {
            envelope.levelValue = levels[lane]
        }
    }

    /// Runs `change` (a gate, kill or parameter change) on the scalar `envelope` of `lane` at the
    /// current sample, then mirrors the result: store, change, load.
    @inlinable
    public mutating func update(_ lane: Int, _ envelope: inout ADSR, _ change: (inout ADSR) -> Void) {
        store(lane, into: &envelope)
        change(&envelope)
        load(lane, from: envelope)
    }

    /// Advances every lane one sample; returns the lanes whose segment ended at this sample. Call
    /// `endSegment(_:_:)` for each of them before reading `output`.
    @inlinable @inline(__always)
    public mutating func step() -> Mask {
        let next = levels * coefficients + bases
        levels = next
        return next * directions .>= signedEnds
    }

    /// Whether every lane sits at a fixed point of its step: the next `step()` would leave every level
    /// the same, bit for bit, and end no segment. The step is a function of the level alone (its
    /// coefficients change only through `update` and `endSegment`), so every step after it does the same
    /// until the next event, and `output` is the same for every sample until then: a voice loop may take
    /// it once for its block instead of stepping (a sustain the glide has reached, idle lanes).
    ///
    /// Levels are compared as bit patterns, not as numbers: −0 and +0 are told apart and a NaN level is
    /// held only if stepping reproduces its bits, so holding never differs from stepping.
    /// - Complexity: one step's arithmetic and two mask reductions; call it once per block.
    @inlinable
    public var isHeld: Bool {
        let next = levels * coefficients + bases
        let same = unsafeBitCast(next, to: SIMD8<UInt64>.self) .== unsafeBitCast(levels, to: SIMD8<UInt64>.self)
        return !Self.anyLane(.!same) && !Self.anyLane(next * directions .>= signedEnds)
    }

    /// Finishes `lane`'s segment in its scalar `envelope` (level to the segment's end, next stage) and
    /// reloads the lane. `output` then holds what the scalar envelope returned at this sample.
    @inlinable
    public mutating func endSegment(_ lane: Int, _ envelope: inout ADSR) {
        envelope.levelValue = levels[lane]
        envelope.endSegment()
        load(lane, from: envelope)
    }

    /// The current gain per lane, 0…1.
    @inlinable
    public var output: Vector {
        // Inlined always: as a call, the whole lane state is copied to memory every sample.
        @inline(__always) get {
            // Halves converted apart: a direct SIMD8<Double> → SIMD8<Float> goes through the generic
            // element-wise initialiser.
            let low = SIMD4<Float>(Float(levels[0]), Float(levels[1]), Float(levels[2]), Float(levels[3]))
            let high = SIMD4<Float>(Float(levels[4]), Float(levels[5]), Float(levels[6]), Float(levels[7]))
            return Vector(lowHalf: low, highHalf: high)
        }
    }

    /// The level of `lane` (Double, as the scalar envelope keeps it).
    @inlinable
    public func level(_ lane: Int) -> Double { levels[lane] }

    /// Whether any lane of `mask` is set (the halves folded with vector ORs; see
    /// `BandLimitedOscillatorLanes.anyLane`).
    @inlinable @inline(__always)
    public static func anyLane(_ mask: Mask) -> Bool {
        let lanes = SIMD8<Int64>(repeating: 0).replacing(with: -1, where: mask)
        let four = lanes.lowHalf | lanes.highHalf
        let two = four.lowHalf | four.highHalf
        return (two.x | two.y) != 0
    }

    /// The lanes of `mask` as bits (lane 0 = bit 0), for visiting the few lanes an event touched.
    @inlinable @inline(__always)
    public static func bits(_ mask: Mask) -> UInt8 {
        let lanes = SIMD8<Int64>(repeating: 0).replacing(with: 1, where: mask)
        let weights = SIMD8<Int64>(1, 2, 4, 8, 16, 32, 64, 128)
        let w = lanes &* weights
        let four = w.lowHalf | w.highHalf
        let two = four.lowHalf | four.highHalf
        return UInt8(truncatingIfNeeded: two.x | two.y)
    }
}
