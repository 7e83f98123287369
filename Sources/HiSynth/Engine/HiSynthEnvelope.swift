/// HiSynth's ADSR, the one envelope logic every voice of both layers runs, per sample.
///
/// The original app steps a gain every 1 ms from a dispatch timer; this is the same envelope with the
/// same segment times, evaluated every sample (its README's own wish). Behaviour (spec §1, Envelope):
/// - Gate on: when attack + decay ≤ 1 ms the gain jumps to 1 and stays there until the gate closes,
///   ignoring sustain (the original's quirk). Otherwise the attack rises from 0 at 1/A per second to 1,
///   then the decay falls at (1 − S)/D per second to S, where it stays.
/// - Gate off: when release ≤ 0.05 s or sustain ≤ 0.05 the gain drops to 0 at once (a hard cut).
///   Otherwise it continues from min(current, S), falling at S/R per second to 0, so a release from the
///   sustain level lasts exactly R.
/// - Every jump the original makes (the gate-on jump to 1, an attack shorter than 1 ms, the hard cut,
///   the drop from above S to S at gate off, the hard mute of a re-struck or stolen voice) becomes a
///   linear ramp of `jumpRampTime` (1 ms) laid over the logical envelope, so it never clicks while the
///   segment timing stays the original's: the logical envelope jumps and runs on; only the audible
///   difference to it fades out over 1 ms.
///
/// `Parameters` holds what every voice shares (computed once per preset change, no per-sample
/// division); `State` is one voice's envelope. Both are plain values: no allocation, no locks.
public enum HiSynthEnvelope {
    /// Length of the ramp that replaces each of the original's jumps, in seconds.
    public static let jumpRampTime = 0.001
    /// Release or sustain at or below this makes the gate-off a hard cut (the original's rule), in s / linear.
    public static let hardCutThreshold = 0.05
    /// Attack + decay at or below this makes the gate-on a jump to 1 that ignores sustain, in seconds.
    public static let instantThreshold = 0.001

    /// The envelope settings every voice shares, with per-sample steps derived for one sample rate.
    public struct Parameters: Sendable, Hashable {
        /// Attack time in seconds (0…2 in the UI).
        public private(set) var attack: Double = 0
        /// Decay time in seconds (0.05…2 in the UI).
        public private(set) var decay: Double = 0.5
        /// Sustain level, 0…1.
        public private(set) var sustain: Double = 1
        /// Release time in seconds (0.05…10 in the UI).
        public private(set) var release: Double = 0.05

        var attackStep: Float = 1
        var decayStep: Float = 0
        var releaseStep: Float = 1
        var sustainLevel: Float = 1
        var jumpsOnGate = false
        var attackJumps = true
        var cutsOnRelease = true
        var rampSamples: Float = 44
        /// 1 / rampSamples.
        var rampStep: Float = 1.0 / 44

        public init() {}

        /// Sets the four values (already clamped by the caller to the preset's ranges; non-finite
        /// values fall back to the start-up envelope) and derives the steps for `sampleRate`.
        public mutating func set(attack a: Double, decay d: Double, sustain s: Double, release r: Double, sampleRate: Double) {
            attack = a.isFinite ? max(0, a) : 0
            decay = d.isFinite ? max(0, d) : 0.5
            sustain = s.isFinite ? min(max(s, 0), 1) : 1
            release = r.isFinite ? max(0, r) : 0.05
            let fs = sampleRate > 0 && sampleRate.isFinite ? sampleRate : 44_100
            rampSamples = Float(max(1, (HiSynthEnvelope.jumpRampTime * fs).rounded()))
            rampStep = 1 / rampSamples
            jumpsOnGate = attack + decay <= HiSynthEnvelope.instantThreshold
            attackJumps = attack * fs < Double(rampSamples)
            attackStep = attack > 0 ? Float(1 / (attack * fs)) : 1
            decayStep = decay > 0 ? Float((1 - sustain) / (decay * fs)) : 1
            sustainLevel = Float(sustain)
            cutsOnRelease = release <= HiSynthEnvelope.hardCutThreshold || sustain <= HiSynthEnvelope.hardCutThreshold
            releaseStep = release > 0 ? Float(sustain / (release * fs)) : 1
        }
    }

    /// Where one voice's envelope is.
    public enum Stage: UInt8, Sendable, Hashable {
        /// Silent (and the jump ramp done).
        case idle
        case attack, decay, sustain
        /// The attack + decay ≤ 1 ms quirk: held at 1 until the gate closes.
        case held
        case release
    }

    /// One voice's envelope: the logical gain of the original plus the fading remainder of its last jump.
    public struct State: Sendable, Hashable {
        /// The original's gain, 0…1.
        public private(set) var level: Float = 0
        public private(set) var stage: Stage = .idle
        /// Output minus `level` right after the last jump; fades linearly to 0 over the ramp.
        var offset: Float = 0
        /// Amount `offset` shrinks per sample.
        var offsetStep: Float = 0
        /// The release's fall per sample, S/(R·fs) as they were at the gate-off (a preset changed during
        /// the release does not stall or speed it).
        var releaseStep: Float = 1

        public init() {}

        /// The gain the voice is heard at: `level` plus what is left of the last jump's ramp.
        public var output: Float { level + offset }
        /// Sounding, or still ramping away the last jump.
        public var isActive: Bool { stage != .idle }

        /// Moves the logical level to `newLevel` at once and lays a ramp over the difference.
        @inline(__always)
        mutating func jump(to newLevel: Float, _ p: Parameters) {
            let heard = level + offset
            level = newLevel
            offset = heard - newLevel
            offsetStep = offset * p.rampStep
        }

        /// Opens the gate (the attack always restarts from 0, as in the original).
        public mutating func gateOn(_ p: Parameters) {
            if level != 0 { jump(to: 0, p) }
            if p.jumpsOnGate {
                jump(to: 1, p)
                stage = .held
            } else if p.attackJumps {
                jump(to: 1, p)
                stage = .decay
            } else {
                stage = .attack
            }
        }

        /// Closes the gate: a hard cut, or the release from min(current, S).
        public mutating func gateOff(_ p: Parameters) {
            guard stage != .idle else { return }
            if p.cutsOnRelease {
                jump(to: 0, p)
            } else if level > p.sustainLevel {
                jump(to: p.sustainLevel, p)
            }
            releaseStep = p.releaseStep > 0 ? p.releaseStep : 1
            stage = .release
        }

        /// Hard-mutes the voice (re-strike or steal): the gain ramps to 0 over 1 ms, then idles.
        public mutating func mute(_ p: Parameters) {
            guard stage != .idle else { return }
            jump(to: 0, p)
            releaseStep = 1
            stage = .release
        }

        /// Silences at once (reset): no ramp.
        public mutating func clear() {
            level = 0
            offset = 0
            offsetStep = 0
            stage = .idle
        }

        /// The samples for which the heard gain is a straight line (no jump ramp left, no stage change),
        /// and its step per sample; nil when the next sample needs `next(_:)`. Voice loops run such
        /// stretches with one add per sample, then hand the level back with `setLinearLevel(_:)`; the
        /// arithmetic is the same as `next(_:)`'s, so the result is identical.
        @inline(__always)
        func linearRun(_ p: Parameters) -> (count: Int, step: Float)? {
            guard offset == 0 else { return nil }
            switch stage {
            case .held:
                return (Int.max, 0)
            case .sustain:
                return level == p.sustainLevel ? (Int.max, 0) : nil
            case .attack:
                return Self.run(1 - level, p.attackStep)
            case .decay:
                return Self.run(level - p.sustainLevel, p.decayStep).map { ($0.count, -$0.step) }
            case .release:
                return Self.run(level, releaseStep).map { ($0.count, -$0.step) }
            case .idle:
                return nil
            }
        }

        /// Whole steps of `step` that stay strictly inside `distance` (one short, so the segment's own end
        /// is left to `next(_:)`); nil when there are none or the numbers are degenerate.
        @inline(__always)
        static func run(_ distance: Float, _ step: Float) -> (count: Int, step: Float)? {
            guard step > 0, distance > 0 else { return nil }
            let steps = min(distance / step, 1e9)
            let n = Int(steps) - 1
            return n > 0 ? (n, step) : nil
        }

        /// The level reached after a `linearRun` stretch.
        @inline(__always)
        mutating func setLinearLevel(_ value: Float) { level = value }

        /// Advances one sample and returns the heard gain.
        @inline(__always)
        public mutating func next(_ p: Parameters) -> Float {
            switch stage {
            case .idle, .held:
                break
            case .attack:
                level += p.attackStep
                if level >= 1 {
                    level = 1
                    stage = .decay
                }
            case .decay:
                let lower = level - p.decayStep
                if lower <= p.sustainLevel {
                    // Lands on S; a sustain raised by a new preset above the level is reached by the sustain stage.
                    level = min(level, p.sustainLevel)
                    stage = .sustain
                } else {
                    level = lower
                }
            case .sustain:
                // A sustain changed by a new preset is followed at the decay's speed (never a jump).
                if level != p.sustainLevel {
                    let step = max(p.decayStep, p.rampStep)
                    level = level > p.sustainLevel ? max(level - step, p.sustainLevel) : min(level + step, p.sustainLevel)
                }
            case .release:
                level -= releaseStep
                if level <= 0 { level = 0 }
            }
            if offset != 0 {
                let rest = offset - offsetStep
                // Finished once the ramp crosses 0 (it shrinks towards 0 from either side).
                offset = (rest > 0) == (offset > 0) && rest != 0 ? rest : 0
            }
            if stage == .release && level == 0 && offset == 0 { stage = .idle }
            return level + offset
        }
    }
}
