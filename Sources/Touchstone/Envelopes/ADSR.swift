import Foundation

/// An attack–decay–sustain–release envelope with sample-accurate gates, click-free retrigger and a
/// fast kill for voice stealing.
///
/// - Gate: call `gateOn()` / `gateOff()` between samples (split a block at the event's frame offset),
///   so timing is exact to the sample.
/// - Retrigger: `gateOn()` while sounding starts the attack from the *current* level, never from 0.
/// - Timing: from 0 the attack reaches 1 in `attack` seconds (from a level L it takes (1 − L)·attack for
///   `.linear`, less for `.exponential`); the decay reaches `sustain` in `decay` seconds; the release
///   reaches 0 in `release` seconds from whatever level the gate closed at.
/// - `isActive` is false once the release (or kill) has reached 0, so a voice can be freed.
/// - `kill(fadeTime:)` fades linearly to 0 over a few milliseconds (default 3 ms) for a stolen voice.
///
/// Output is a gain 0…1. Each sample costs one multiply-add and one compare; segment changes and
/// parameter changes compute coefficients (control rate: `pow`).
///
///     var env = ADSR(ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5))
///     env.prepare(spec)
///     env.gateOn()
///     let gain = env.nextSample()
@frozen
public struct ADSR: SignalGenerator, Sendable {
    /// Segment times, sustain level and curve.
    public struct Parameters: Sendable, Hashable, Codable {
        /// Attack time in seconds, 0…100 (clamped).
        public var attack: Double
        /// Decay time in seconds, 0…100 (clamped).
        public var decay: Double
        /// Sustain level, 0…1 (clamped).
        public var sustain: Double
        /// Release time in seconds, 0…100 (clamped).
        public var release: Double
        /// Curve of every segment.
        public var shape: EnvelopeShape

        public init(attack: Double = 0.01, decay: Double = 0.1, sustain: Double = 0.8, release: Double = 0.3,
                    shape: EnvelopeShape = .linear) {
            func time(_ t: Double) -> Double { t.clamped(to: 0...100, nonFinite: 0) }
            self.attack = time(attack)
            self.decay = time(decay)
            self.sustain = sustain.clamped(to: 0...1, nonFinite: 0)
            self.release = time(release)
            self.shape = shape
        }
    }

    /// Where the envelope is.
    public enum Stage: UInt8, Sendable, Hashable {
        case idle, attack, decay, sustain, release, kill
    }

    /// Overshoot ratio of the exponential attack (EarLevel-style target 1 + ratio).
    public static let exponentialAttackRatio: Double = 0.3
    /// Overshoot ratio of exponential decay and release (1e-3 of the span: about −60 dB at the segment end).
    public static let exponentialDecayRatio: Double = 0.001
    /// Time constant in seconds with which the sustain level follows a changed `sustain` parameter.
    public static let sustainSmoothingTime: Double = 0.005

    /// The current parameters. Change them with `setParameters(_:)`.
    public private(set) var parameters: Parameters
    /// The current stage.
    @inlinable public var stage: Stage { stageValue }
    /// The current output level, 0…1.
    @inlinable public var level: Float { Float(levelValue) }
    /// Whether the envelope produces anything (false once idle: the voice may be freed).
    @inlinable public var isActive: Bool { stageValue != .idle }

    @usableFromInline var stageValue: Stage = .idle
    // The level runs in Double: over a 10 s segment (480 000 steps) Float rounding would move the end
    // of a segment by hundreds of samples; Double costs the same per step on current CPUs.
    @usableFromInline var levelValue: Double = 0
    @usableFromInline var coefficient: Double = 1
    @usableFromInline var base: Double = 0
    @usableFromInline var stageEnd: Double = 0
    @usableFromInline var rising = false
    @usableFromInline var sustainLevel: Double
    @usableFromInline var sustainCoefficient: Double = 1
    @usableFromInline var sampleRate: Double = 48_000
    @usableFromInline var killTime: Double = 0.003
    // Per-segment constants, computed when parameters or the sample rate change so that segment
    // changes on the audio thread need no libm call: 1/length in samples and the exponential coefficient.
    @usableFromInline var attackStep: Double = 1
    @usableFromInline var decayStep: Double = 1
    @usableFromInline var releaseStep: Double = 1
    @usableFromInline var attackCoefficient: Double = 0
    @usableFromInline var decayCoefficient: Double = 0
    @usableFromInline var releaseCoefficient: Double = 0

    public init(_ parameters: Parameters = Parameters()) {
        self.parameters = parameters
        self.sustainLevel = parameters.sustain
        sustainCoefficient = Double(OnePoleSmoother.coefficient(timeConstant: Self.sustainSmoothingTime, sampleRate: sampleRate))
        computeSegmentConstants()
    }

    mutating func computeSegmentConstants() {
        func length(_ seconds: Double) -> Double { max(1, seconds * sampleRate) }
        attackStep = 1 / length(parameters.attack)
        decayStep = 1 / length(parameters.decay)
        releaseStep = 1 / length(parameters.release)
        attackCoefficient = Self.exponentialCoefficient(ratio: Self.exponentialAttackRatio, samples: length(parameters.attack))
        decayCoefficient = Self.exponentialCoefficient(ratio: Self.exponentialDecayRatio, samples: length(parameters.decay))
        releaseCoefficient = Self.exponentialCoefficient(ratio: Self.exponentialDecayRatio, samples: length(parameters.release))
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        sustainCoefficient = Double(OnePoleSmoother.coefficient(timeConstant: Self.sustainSmoothingTime, sampleRate: sampleRate))
        computeSegmentConstants()
        reset()
    }

    /// Silences immediately (idle, level 0). For a new voice, not for a sounding one (that would click:
    /// use `kill(fadeTime:)`).
    public mutating func reset() {
        stageValue = .idle
        levelValue = 0
    }

    /// Changes the parameters; a segment in progress continues from its current level with the new
    /// timing, and a sustaining envelope glides to the new sustain level in about 5 ms.
    public mutating func setParameters(_ newParameters: Parameters) {
        parameters = newParameters
        sustainLevel = newParameters.sustain
        computeSegmentConstants()
        switch stageValue {
        case .attack: enterAttack()
        case .decay: enterDecay()
        case .release: enterRelease()
        case .idle, .sustain, .kill: break
        }
    }

    /// Opens the gate: attack from the current level (retrigger never restarts from 0).
    public mutating func gateOn() {
        enterAttack()
    }

    /// Closes the gate: release from the current level. No effect when idle or already killed.
    public mutating func gateOff() {
        guard stageValue != .idle, stageValue != .kill, stageValue != .release else { return }
        enterRelease()
    }

    /// Fades linearly to 0 over `fadeTime` seconds (default 3 ms, clamped to 0.1…100 ms), then idles:
    /// frees a voice for stealing without a click.
    public mutating func kill(fadeTime: Double = 0.003) {
        guard stageValue != .idle else { return }
        killTime = fadeTime.clamped(to: 0.0001...0.1, nonFinite: 0.003)
        let samples = max(1, killTime * sampleRate)
        stageValue = .kill
        coefficient = 1
        base = -levelValue / samples
        stageEnd = 0
        rising = false
        if levelValue <= 0 { finish() }
    }

    // MARK: - Segments

    /// Per-sample coefficient for an exponential segment that covers its span in `samples` when
    /// aiming `ratio` of the span beyond the end: c = (ratio / (1 + ratio))^(1/samples).
    @usableFromInline
    static func exponentialCoefficient(ratio: Double, samples: Double) -> Double {
        pow(ratio / (1 + ratio), 1 / samples)
    }

    @usableFromInline
    mutating func enterAttack() {
        stageValue = .attack
        stageEnd = 1
        rising = true
        switch parameters.shape {
        case .linear:
            coefficient = 1
            base = attackStep
        case .exponential:
            let c = attackCoefficient
            coefficient = c
            base = (1 + Self.exponentialAttackRatio) * (1 - c)
        }
        if levelValue >= 1 { levelValue = 1; enterDecay() }
    }

    @usableFromInline
    mutating func enterDecay() {
        stageValue = .decay
        stageEnd = sustainLevel
        rising = false
        if levelValue <= sustainLevel { enterSustain(); return }
        let span = 1 - sustainLevel
        switch parameters.shape {
        case .linear:
            coefficient = 1
            base = -span * decayStep
        case .exponential:
            let c = decayCoefficient
            let target = sustainLevel - Self.exponentialDecayRatio * span
            coefficient = c
            base = target * (1 - c)
        }
    }

    @usableFromInline
    mutating func enterSustain() {
        stageValue = .sustain
    }

    @usableFromInline
    mutating func enterRelease() {
        stageValue = .release
        stageEnd = 0
        rising = false
        if levelValue <= 0 { finish(); return }
        let from = levelValue
        switch parameters.shape {
        case .linear:
            coefficient = 1
            base = -from * releaseStep
        case .exponential:
            let c = releaseCoefficient
            coefficient = c
            base = -Self.exponentialDecayRatio * from * (1 - c)
        }
    }

    @usableFromInline
    mutating func finish() {
        stageValue = .idle
        levelValue = 0
    }

    @usableFromInline
    mutating func endSegment() {
        levelValue = stageEnd
        switch stageValue {
        case .attack: enterDecay()
        case .decay: enterSustain()
        case .release, .kill: finish()
        case .idle, .sustain: break
        }
    }

    // MARK: - Processing

    /// Next gain, 0…1.
    @inlinable @inline(__always)
    public mutating func nextSample() -> Float {
        switch stageValue {
        case .idle:
            return 0
        case .sustain:
            let distance = sustainLevel - levelValue
            levelValue = abs(distance) < 1e-7 ? sustainLevel : levelValue + sustainCoefficient * distance
            return Float(levelValue)
        case .attack, .decay, .release, .kill:
            let next = levelValue * coefficient + base
            levelValue = next
            if rising ? next >= stageEnd : next <= stageEnd { endSegment() }
            return Float(levelValue)
        }
    }

    /// Fills `buffer` with gains. Split blocks at gate events for sample accuracy.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>) {
        if stageValue == .idle {
            for i in buffer.indices { buffer[i] = 0 }
            return
        }
        var envelope = self           // local copy: stores through `buffer` could alias `self`
        for i in buffer.indices { buffer[i] = envelope.nextSample() }
        self = envelope
    }

    /// Multiplies `buffer` by the envelope in place (the usual voice-amplifier use).
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func apply(to buffer: UnsafeMutableBufferPointer<Float>) {
        var envelope = self
        for i in buffer.indices { buffer[i] *= envelope.nextSample() }
        self = envelope
    }
}
