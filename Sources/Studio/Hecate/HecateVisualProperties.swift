import Foundation
import Hecate
import InstrumentSettings

/// What Immerse draws with, from one engine snapshot, as the seed's visual-property table maps them:
/// tone amplitudes → density, bass → bloom, tremolo phase → pump, breath → drift, shimmer → glow,
/// filter sweep → stretch, RMS → brightness (RMS also feeds density). Every value is 0…1, so the
/// shaders and the 2D fallback need no knowledge of the engine's levels.
public struct HecateVisualProperties: Sendable, Hashable {
    /// Amplitudes of the first five tone banks (root, 3rd, 5th, 7th, 9th), 0…1.
    public var tones: [Double]
    /// Spawn density: the tones' mean, lifted by the loudness.
    public var density: Double
    /// Centre bloom: the bass voice's amplitude.
    public var bloom: Double
    /// Brightness pump: the tremolo's phase (0…1, one cycle per tremolo period); 0 with the tremolo off.
    public var pump: Double
    /// Centre drift: the breathing LFO's phase, 0…1.
    public var drift: Double
    /// Particle glow: the octave shimmer (the smile) relative to its full level (the pack's brightness cap).
    public var glow: Double
    /// Tangential stretch: the low-pass cutoff's place in its range, 0…1.
    public var stretch: Double
    /// Brightness: the smoothed output RMS on a −60…0 dBFS scale.
    public var brightness: Double
    /// The smoothed output RMS itself (linear), which the page compares with `idleRMS` to throttle.
    public var rms: Double

    /// Below this RMS (linear) the picture is idle and redraws at 10 fps instead of the display rate.
    public static let idleRMS = 0.005

    /// Loudness on a 0…1 scale: −60 dBFS → 0, 0 dBFS → 1.
    public static func loudness(_ rms: Double) -> Double {
        guard rms.isFinite, rms > 0 else { return 0 }
        return min(max(1 + 20 * log10(rms) / 60, 0), 1)
    }

    static func unit(_ x: Float) -> Double { x.isFinite ? min(max(Double(x), 0), 1) : 0 }

    /// - Parameters:
    ///   - tremoloOn: whether the tremolo is on (its depth above 0): the pump rests otherwise.
    ///   - brightnessCap: the pack's highest shimmer level (a full smile), 0…1.
    public init(_ s: DroneSynthSnapshot, tremoloOn: Bool, brightnessCap: Double) {
        tones = [s.root, s.third, s.fifth, s.seventh, s.ninth].map(Self.unit)
        rms = s.rms.isFinite ? max(Double(s.rms), 0) : 0
        brightness = Self.loudness(rms)
        density = min(0.7 * (tones.reduce(0, +) / 5) + 0.3 * brightness, 1)
        bloom = Self.unit(s.bass)
        pump = tremoloOn ? Self.unit(s.tremoloPhase) : 0
        drift = Self.unit(s.breathPhase)
        // The shimmer tops out at the pack's brightness cap: a full smile glows fully in every pack.
        glow = brightnessCap > 0.001 ? min(Self.unit(s.shimmer) / brightnessCap, 1) : 0
        stretch = Self.unit(s.filterSweep)
    }

    public var json: StudioValue {
        .object([
            "tones": .array(tones.map { .number($0) }), "density": .number(density), "bloom": .number(bloom),
            "pump": .number(pump), "drift": .number(drift), "glow": .number(glow), "stretch": .number(stretch),
            "brightness": .number(brightness), "rms": .number(rms), "idle": .bool(rms < Self.idleRMS),
        ])
    }
}
