import Foundation

/// Fuzz: hyperbolic-tangent saturation with level compensation and dry/wet mix.
///
///     wet = level · tanh(g·x) / tanh(g),   out = x + mix·(wet − x)
///
/// - `drive` (dB, 0…48): the pre-gain g = 10^(drive/20). 0 dB is nearly clean,
///   48 dB is a square-ish fuzz.
/// - Level compensation divides by tanh(g), so a full-scale input (±1) comes out at
///   exactly ±`level` at any drive; turning the drive up thickens the sound without
///   a jump in peak level.
/// - `outputLevel` (dB, −48…+12) trims the wet signal.
/// - `mix` (0…1) cross-fades dry to wet.
///
/// Drive, level and mix are smoothed per sample (one-pole, `smoothingTime`), the
/// drive in the linear-gain domain, so a hand sweeping the drive never zippers.
/// Stateless with respect to the signal: a NaN input gives a NaN for that sample
/// only and never propagates. Mono; one instance per channel.
public struct Fuzz: MonoProcessor {
    /// Drive range, in dB.
    public static let driveRange: ClosedRange<Float> = 0...48
    /// Output level range, in dB.
    public static let outputLevelRange: ClosedRange<Float> = -48...12

    @usableFromInline var sampleRate: Float = 48_000
    @usableFromInline var smoothingCoefficient: Float = 1
    @usableFromInline var gainTarget: Float
    @usableFromInline var gain: Float
    @usableFromInline var compensation: Float
    @usableFromInline var levelTarget: Float
    @usableFromInline var level: Float
    @usableFromInline var mixTarget: Float
    @usableFromInline var mixValue: Float

    /// Time constant of parameter smoothing, in seconds (0…1; 0 = immediate).
    public var smoothingTime: Float = 0.01 {
        didSet {
            smoothingTime = min(max(smoothingTime, 0), 1)
            updateSmoothing()
        }
    }

    /// Creates a fuzz with `drive` dB (0…48), `outputLevel` dB (−48…12) and `mix` (0…1).
    public init(drive: Float = 18, outputLevel: Float = 0, mix: Float = 1) {
        gainTarget = 1
        levelTarget = 1
        mixTarget = 1
        gain = 1
        compensation = 1
        level = 1
        mixValue = 1
        self.drive = drive
        self.outputLevel = outputLevel
        self.mix = mix
        snapToTargets()
    }

    /// Pre-gain in dB, 0…48 (clamped). Smoothed.
    public var drive: Float {
        get { 20 * log10(gainTarget) }
        set {
            let decibels = newValue.clamped(to: Self.driveRange, nonFinite: 0)
            gainTarget = pow(10, decibels / 20)
        }
    }

    /// Wet output level in dB, −48…+12 (clamped). Smoothed.
    public var outputLevel: Float {
        get { 20 * log10(levelTarget) }
        set {
            let decibels = newValue.clamped(to: Self.outputLevelRange, nonFinite: 0)
            levelTarget = pow(10, decibels / 20)
        }
    }

    /// Dry/wet, 0 (dry) … 1 (wet) (clamped). Smoothed.
    public var mix: Float {
        get { mixTarget }
        set { mixTarget = newValue.clamped(to: 0...1, nonFinite: 1) }
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        updateSmoothing()
        reset()
    }

    /// Jumps every smoothed parameter to its target.
    public mutating func reset() {
        snapToTargets()
    }

    /// The wet transfer curve at the current (smoothed) drive and level, for display
    /// and tests: `level · tanh(g·x) / tanh(g)`.
    public func transfer(_ input: Float) -> Float {
        level * FastElementary.tanh(gain * input) * compensation
    }

    /// Processes one sample (linear amplitude).
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        if gain != gainTarget {
            gain += smoothingCoefficient * (gainTarget - gain)
            if abs(gainTarget - gain) <= 1e-6 * gainTarget { gain = gainTarget }
            compensation = 1 / FastElementary.tanh(gain)
        }
        level += smoothingCoefficient * (levelTarget - level)
        mixValue += smoothingCoefficient * (mixTarget - mixValue)
        let wet = level * compensation * FastElementary.tanh(gain * input)
        return input + mixValue * (wet - input)
    }

    /// Processes a block in place (at most the prepared maximum block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        // A local copy keeps the smoothed values in registers: the stores into
        // `buffer` could otherwise alias `self` and force a reload every sample.
        var fuzz = self
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        var i = 0
        if fuzz.gain == fuzz.gainTarget {
            // Drive settled (the usual case): level and mix still glide sample by sample, but the shaper runs four
            // samples at a time. The same operations in the same order as `processSample`, so the same output.
            let coefficient = fuzz.smoothingCoefficient
            let gain = fuzz.gain, compensation = fuzz.compensation
            var level = fuzz.level, mix = fuzz.mixValue
            let levelTarget = fuzz.levelTarget, mixTarget = fuzz.mixTarget
            while i &+ 4 <= count {
                var levels = SIMD4<Float>(), mixes = SIMD4<Float>()
                for j in 0..<4 {
                    level += coefficient * (levelTarget - level)
                    mix += coefficient * (mixTarget - mix)
                    levels[j] = level
                    mixes[j] = mix
                }
                let input = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD4<Float>.self)
                let wet = levels * compensation * FastElementary.tanh(gain * input)
                UnsafeMutableRawPointer(base + i).storeBytes(of: input + mixes * (wet - input), as: SIMD4<Float>.self)
                i &+= 4
            }
            fuzz.level = level
            fuzz.mixValue = mix
        }
        while i < count {
            base[i] = fuzz.processSample(base[i])
            i &+= 1
        }
        self = fuzz
    }

    mutating func snapToTargets() {
        gain = gainTarget
        compensation = 1 / FastElementary.tanh(gain)
        level = levelTarget
        mixValue = mixTarget
    }

    mutating func updateSmoothing() {
        smoothingCoefficient = smoothingTime > 0 ? 1 - exp(-1 / (smoothingTime * sampleRate)) : 1
    }
}
