import Ariel
import Foundation
import Hecate
import Horatio
import Testing
import Touchstone

/// Every row of the seed's two mapping tables, driven through FaceMappingSet and the ENGINE, and
/// measured in the rendered audio.
@Suite struct DroneSynthEngineMappingTests {
    /// A face with the given signals; the rest neutral (blendshapes 0, head straight).
    static func face(_ values: [FaceSignal: Double]) -> DroneSynthEngine.Command {
        let out = FaceMappingSet.hecateDefaults.evaluate { signal in
            if let v = values[signal] { return v }
            switch signal {
            case .headYaw, .headPitch, .headRoll: return 0.5
            default: return 0
            }
        }
        return .face(FaceAmounts(out))
    }

    /// Renders 1.5 s of `face` with `preset` and returns the left channel's last second.
    static func render(_ values: [FaceSignal: Double], preset: VoicePreset = measuringPreset()) -> [Float] {
        let engine = DroneSynthEngine(preset: preset, key: .c)
        let out = renderEngine(engine, seconds: 1.5, commands: [(0, face(values))])
        return Array(out.left[Int(0.5 * 48_000)...])
    }

    static let all = 0..<48_000

    static func level(_ signal: [Float], _ tone: ChordTone) -> Double {
        decibels(toneAmplitude(signal, at: toneFrequency(tone), in: all))
    }

    @Test func atRestOnlyTheRootSounds() {
        let rest = Self.render([:])
        let root = Self.level(rest, .root)
        #expect(root > -40)
        for tone in [ChordTone.third, .fifth, .seventh, .ninth] {
            #expect(Self.level(rest, tone) < root - 40, "\(tone) at rest")
        }
    }

    @Test func jawLowerHalfAddsTheFifthUpperHalfTheBass() {
        let rest = Self.render([:])
        let quarter = Self.render([.blendshape("jawOpen"): 0.25])
        let wide = Self.render([.blendshape("jawOpen"): 1])
        let bassHz = DroneVoicing.frequency(DroneVoicing(key: .c, degree: .one).bass)
        #expect((55..<110).contains(bassHz))
        let bass = { (s: [Float]) in decibels(toneAmplitude(s, at: bassHz, in: Self.all)) }
        // The fifth comes in during the lower half (0.25 → level 0.5).
        #expect(Self.level(quarter, .fifth) > Self.level(rest, .fifth) + 30)
        // The bass does not, until the upper half.
        #expect(bass(quarter) < bass(rest) + 3)
        #expect(bass(wide) > bass(quarter) + 30)
        #expect(Self.level(wide, .fifth) > Self.level(quarter, .fifth) + 4)
    }

    @Test func browsAddTheThird() {
        let rest = Self.render([:])
        let brows = Self.render([.blendshape("browInnerUp"): 1])
        #expect(Self.level(brows, .third) > Self.level(rest, .third) + 30)
        #expect(Self.level(brows, .seventh) < Self.level(brows, .third) - 30)
    }

    @Test func cheekPuffAddsTheSeventh() {
        let rest = Self.render([:])
        let puff = Self.render([.blendshape("cheekPuff"): 1])
        #expect(Self.level(puff, .seventh) > Self.level(rest, .seventh) + 30)
        #expect(Self.level(puff, .ninth) < Self.level(puff, .seventh) - 30)
    }

    @Test func puckerAddsTheSeventhAndNinth() {
        let rest = Self.render([:])
        let pucker = Self.render([.blendshape("mouthPucker"): 1])
        #expect(Self.level(pucker, .seventh) > Self.level(rest, .seventh) + 30)
        #expect(Self.level(pucker, .ninth) > Self.level(rest, .ninth) + 30)
        #expect(Self.level(pucker, .third) < Self.level(pucker, .ninth) - 30)
    }

    /// A bright sawtooth voice with only the formant dry path, for the filter rows.
    static var sawPreset: VoicePreset { measuringPreset(SoundPack.coven.preset) }

    @Test func headTurnEitherWayOpensTheFilter() {
        let straight = Self.render([:], preset: Self.sawPreset)
        let left = Self.render([.headYaw: FaceSignal.normalisedAngle(-22.5, range: 45)], preset: Self.sawPreset)
        let right = Self.render([.headYaw: FaceSignal.normalisedAngle(22.5, range: 45)], preset: Self.sawPreset)
        let c0 = spectralCentroid(straight, in: Self.all)
        let cl = spectralCentroid(left, in: Self.all)
        let cr = spectralCentroid(right, in: Self.all)
        #expect(cl > c0 * 1.5, "centroid straight \(c0) Hz, turned left \(cl) Hz")
        #expect(abs(cl - cr) < 0.05 * cl, "both directions alike: \(cl) vs \(cr)")
    }

    /// Formant-only voice (dry 0, F2 band only) so the centroid follows F2.
    static var formantPreset: VoicePreset {
        var p = Self.sawPreset
        p.filterCutoffMin = 9_000
        p.filterCutoffMax = 12_000
        p.formantDryMix = 0
        p.formantF1Mix = 0
        p.formantF2Mix = 1
        return p
    }

    @Test func nodAndSmileMoveF2() {
        let rest = spectralCentroid(Self.render([:], preset: Self.formantPreset), in: Self.all)
        let nod = spectralCentroid(Self.render([.headPitch: FaceSignal.normalisedAngle(12, range: 30)], preset: Self.formantPreset), in: Self.all)
        let smile = spectralCentroid(Self.render([.smile: 1], preset: Self.formantPreset), in: Self.all)
        // F2 spans 800…2500 Hz in Coven: the band's centre, and so the centroid, rises.
        #expect(nod > rest * 1.6, "F2 rest \(rest) Hz, nod \(nod) Hz")
        #expect(smile > rest * 1.6, "F2 rest \(rest) Hz, smile \(smile) Hz")
    }

    @Test func jawMovesF1() {
        var p = Self.formantPreset
        p.formantF1Mix = 1
        p.formantF2Mix = 0
        p.subLevel = 0
        p.bassLevel = 0
        // Coven's F1 moves 250 → 900 Hz: harmonic 7 of the root (916 Hz) gains on harmonic 2 (262 Hz).
        let root = toneFrequency(.root)
        let tilt = { (s: [Float]) in
            decibels(toneAmplitude(s, at: 7 * root, in: Self.all)) - decibels(toneAmplitude(s, at: 2 * root, in: Self.all))
        }
        let closed = tilt(Self.render([:], preset: p))
        let open = tilt(Self.render([.blendshape("jawOpen"): 1], preset: p))
        #expect(open > closed + 20, "F1 high/low balance closed \(closed) dB, open \(open) dB")
    }

    @Test func headTiltRaisesResonance() {
        // Harmonics 4 and 5 of C3 (523, 654 Hz) straddle Coven's resting cutoff (600 Hz).
        let flat = Self.render([:], preset: Self.sawPreset)
        let tilted = Self.render([.headRoll: FaceSignal.normalisedAngle(-5.4, range: 45)], preset: Self.sawPreset)
        let root = toneFrequency(.root)
        let near = { (s: [Float]) in toneAmplitude(s, at: 4 * root, in: Self.all) + toneAmplitude(s, at: 5 * root, in: Self.all) }
        #expect(decibels(near(tilted)) > decibels(near(flat)) + 6, "resonant peak \(decibels(near(tilted))) vs \(decibels(near(flat))) dB")
    }

    @Test func smileAddsOctaveShimmerUpToTheCap() {
        var p = measuringPreset()
        p.detuneCents = 0  // one partial per tone, so amplitudes compare exactly
        let rest = Self.render([:], preset: p)
        let half = Self.render([.smile: 0.5], preset: p)
        let full = Self.render([.smile: 1], preset: p)
        let octave = { (s: [Float]) in toneAmplitude(s, at: toneFrequency(.octave), in: Self.all) }
        #expect(decibels(octave(half)) > decibels(octave(rest)) + 30)
        // Linear in the smile: full is twice half (6 dB), and full reaches the cap relative to the root.
        #expect(abs(decibels(octave(full)) - decibels(octave(half)) - 6.02) < 1)
        let root = toneAmplitude(full, at: toneFrequency(.root), in: Self.all)
        let cap = SoundPack.cathedral.preset.brightnessCap
        #expect(abs(decibels(octave(full) / root) - decibels(cap)) < 1.5, "octave/root \(decibels(octave(full) / root)) dB, cap \(decibels(cap)) dB")
    }
}
