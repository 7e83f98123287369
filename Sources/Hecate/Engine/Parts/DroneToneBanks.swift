import Touchstone

/// The six chord-tone banks (root, third, fifth, seventh, ninth, octave; three detuned oscillators
/// each) as SIMD lanes, with their levels: the face's level per tone (0…1), the target it sets (the
/// octave also rises with the smile's shimmer) smoothed per sample over
/// `DroneSynthEngine.levelSmoothingTime`, times the arpeggiator's gate smoothed over
/// `DroneSynthEngine.arpGateTime`.
///
/// Lanes 6 and 7 stand still at 0 Hz and silent, so they never ask for band-limiting work. A silent
/// bank still runs, so its phase stays continuous when it comes back.
struct DroneToneBanks {
    var banks: DetunedOscillatorBankLanes
    /// Per bank: the face's level (0…1, rest levels included), the level target and the smoothed level.
    var faceLevels: SIMD8<Float> = .zero
    private(set) var levelTargets: SIMD8<Float> = .zero
    private(set) var levels: SIMD8<Float> = .zero
    /// Per bank: the arpeggiator's gate, smoothed (0 shut … 1 open).
    private(set) var gates = SIMD8<Float>(1, 1, 1, 1, 1, 1, 0, 0)
    /// One-pole coefficients per sample for levels and gates.
    private var levelCoefficient: Float = 1
    private var gateCoefficient: Float = 1

    /// - Parameters:
    ///   - waveform: the banks' oscillator shape.
    ///   - detuneCents: spread of each bank's outer oscillators, in cents.
    init(waveform: Waveform, detuneCents: Float) {
        // Spread starting phases so a bank opens wide, not as one loud coherent spike.
        let spread = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * 0.13
        banks = DetunedOscillatorBankLanes(
            waveform: waveform, frequencies: SIMD8(220, 220, 220, 220, 220, 220, 0, 0),
            detuneCents: detuneCents, phases: (spread, spread + 0.37, spread + 0.71))
        faceLevels[0] = 1
    }

    mutating func prepare(_ spec: ProcessSpec) {
        banks.prepare(spec)
        levelCoefficient = OnePoleSmoother.coefficient(timeConstant: DroneSynthEngine.levelSmoothingTime, sampleRate: spec.sampleRate)
        gateCoefficient = OnePoleSmoother.coefficient(timeConstant: DroneSynthEngine.arpGateTime, sampleRate: spec.sampleRate)
    }

    /// Oscillators from their starting phases; levels and gates on their targets.
    mutating func reset(gateTargets: SIMD8<Float>) {
        banks.reset()
        levels = levelTargets
        gates = gateTargets
    }

    /// Level targets from the face levels; the octave rises to at least `shimmer` (0…1).
    mutating func updateTargets(shimmer: Float) {
        for i in 0..<6 { levelTargets[i] = faceLevels[i] }
        levelTargets[5] = max(faceLevels[5], shimmer)
    }

    /// Levels jump to their targets (before the first sample, when nothing sounds yet).
    mutating func snapLevels() { levels = levelTargets }

    /// The per-sample level coefficient, which the bass level shares.
    var levelSmoothing: Float { levelCoefficient }

    /// One run of `count` samples with the oscillator shape fixed by the caller (so the oscillators
    /// inline into the loop): the six banks mixed at their levels × gates, times `gain`, into `voice`,
    /// and the root's smoothed level per sample into `rootLevels` (the sub-bass follows it).
    ///
    /// Used while only levels move (no glide, arpeggio or fade); the pedal voices then add their run
    /// in a loop of their own, so each part's state stays in registers through its loop.
    @inline(__always)
    mutating func render<Shape: OscillatorShape>(
        _ shape: Shape.Type, gain: Float, gateTargets: SIMD8<Float>,
        into voice: UnsafeMutablePointer<Float>, rootLevels: UnsafeMutablePointer<Float>, count: Int
    ) {
        var banks = self.banks, levels = self.levels, gates = self.gates
        let levelTargets = self.levelTargets, lc = levelCoefficient, gc = gateCoefficient
        for n in 0..<count {
            levels += (levelTargets - levels) * lc
            gates += (gateTargets - gates) * gc
            voice[n] = (banks.next(Shape.self) * (levels * gates)).sum() * gain
            rootLevels[n] = levels[0]
        }
        self.banks = banks
        self.levels = levels
        self.gates = gates
    }

    /// One sample of the six banks mixed at their levels × gates (0…6 before the mixing gain), for
    /// any shape (looked up per sample): the path where glides, the arpeggio and fades move too.
    @inline(__always)
    mutating func next(gateTargets: SIMD8<Float>) -> Float {
        levels += (levelTargets - levels) * levelCoefficient
        gates += (gateTargets - gates) * gateCoefficient
        return (banks.nextSample() * (levels * gates)).sum()
    }
}
