import Foundation
import Touchstone

/// The three LFOs and the modulation matrix (spec §1, LFOs), evaluated every `controlInterval` samples.
///
/// Each LFO value v (table × depth, −1…1) routed to a target adds that target's offset; the offsets of
/// all LFOs routed to a target are summed:
/// - pitch: ΔHz = Σ 440·(10^(0.1·v) − 1), added in Hz to every voice (+113.9 Hz at v = 1, −90.5 at −1);
/// - amplitude: the filter-out gain = clamp(0.5 + Σ 0.5·v, 0, 1) (0.5 with no LFO routed);
/// - low-pass and high-pass cutoff: B + Σ B·(10^v − 1), i.e. B × `cutoffFactor` (B = 0 stays 0).
/// The engine ramps the pitch offset and the gain linearly across each control run and glides the
/// filter cutoffs to their new values over the run, so the modulation is smooth at any LFO shape.
/// Every note-on resets all three phases to 0 (key sync).
public struct HiSynthModulation: Sendable {
    /// Samples between evaluations (the original: 50 Hz, i.e. every 882 samples at 44.1 kHz).
    public static let controlInterval = 16
    /// The filter-out gain with no amplitude modulation.
    public static let baseAmplitude: Float = 0.5

    /// What the matrix asks for at one control tick.
    public struct Targets: Sendable, Hashable {
        /// Hz added to every voice.
        public var pitchHz: Float = 0
        /// Filter-out gain 0…1.
        public var amplitude: Float = HiSynthModulation.baseAmplitude
        /// Low-pass cutoff = base × this (may be ≤ 0; the filter clamps it).
        public var lowPassFactor: Float = 1
        /// High-pass cutoff = base × this.
        public var highPassFactor: Float = 1
        /// Whether any LFO is routed to pitch (voices then follow per sample).
        public var pitchRouted = false
    }

    public private(set) var lfo1 = HiSynthLFO()
    public private(set) var lfo2 = HiSynthLFO()
    public private(set) var lfo3 = HiSynthLFO()
    /// Routing bits per LFO: 1 pitch, 2 amplitude, 4 low-pass, 8 high-pass.
    var routes: (UInt8, UInt8, UInt8) = (0, 0, 0)
    /// The last values of the three LFOs, for displays.
    public private(set) var values: (Float, Float, Float) = (0, 0, 0)

    public init() {}

    /// Takes the LFO rows of `settings` (depths glide unless `snap`).
    mutating func apply(_ settings: HiSynthSettings, sampleRate: Double, snap: Bool) {
        let ticksPerSecond = sampleRate / Double(Self.controlInterval)
        func configure(_ lfo: inout HiSynthLFO, _ s: HiSynthSettings.LFO) -> UInt8 {
            lfo.set(waveform: s.waveform.shape, speed: s.speed, phaseOffset: s.phase, depth: s.depth, snap: snap,
                    ticksPerSecond: ticksPerSecond)
            return (s.pitch ? 1 : 0) | (s.amplitude ? 2 : 0) | (s.filterLow ? 4 : 0) | (s.filterHigh ? 8 : 0)
        }
        routes = (configure(&lfo1, settings.lfo1), configure(&lfo2, settings.lfo2), configure(&lfo3, settings.lfo3))
    }

    /// Key sync: all phases to 0.
    mutating func resetPhases() {
        lfo1.resetPhase()
        lfo2.resetPhase()
        lfo3.resetPhase()
    }

    /// Evaluates the three LFOs at their current phase, advances them by `seconds`, and returns the targets.
    mutating func tick(seconds: Double) -> Targets {
        let v1 = lfo1.tick(seconds: seconds)
        let v2 = lfo2.tick(seconds: seconds)
        let v3 = lfo3.tick(seconds: seconds)
        values = (v1, v2, v3)
        var t = Targets()
        var pitch: Float = 0, amplitude: Float = 0, low: Float = 0, high: Float = 0
        var anyPitch = false
        // Three explicit calls (an array of pairs would allocate on the audio thread).
        func add(_ v: Float, _ r: UInt8) {
            guard r != 0 else { return }
            if r & 1 != 0 {
                pitch += 440 * (Self.exp10(0.1 * v) - 1)
                anyPitch = true
            }
            if r & 2 != 0 { amplitude += 0.5 * v }
            if r & 4 != 0 { low += Self.exp10(v) - 1 }
            if r & 8 != 0 { high += Self.exp10(v) - 1 }
        }
        add(v1, routes.0)
        add(v2, routes.1)
        add(v3, routes.2)
        t.pitchHz = pitch
        t.pitchRouted = anyPitch
        t.amplitude = min(max(Self.baseAmplitude + amplitude, 0), 1)
        t.lowPassFactor = 1 + low
        t.highPassFactor = 1 + high
        return t
    }

    /// 10^x as 2^(x·log2 10) (exp2f: a few times cheaper than pow; relative error below 1e-6).
    @inline(__always)
    static func exp10(_ x: Float) -> Float { Foundation.exp2(x * 3.321_928_1) }
}
