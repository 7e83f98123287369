import Hecate
import Horatio
import Testing

@Suite struct FaceMappingTests {
    /// A neutral face: blendshapes at 0, head straight (0.5).
    static func face(_ values: [FaceSignal: Double]) -> (FaceSignal) -> Double? {
        { signal in
            if let v = values[signal] { return v }
            switch signal {
            case .headYaw, .headPitch, .headRoll: return 0.5
            default: return 0
            }
        }
    }

    let defaults = FaceMappingSet.hecateDefaults

    @Test func atRestOnlyTheRootDrones() {
        let out = defaults.evaluate(Self.face([:]))
        #expect(out.level(.root) == 1)
        for tone in [ChordTone.third, .fifth, .seventh, .ninth, .octave] { #expect(out.level(tone) == 0, "\(tone)") }
        #expect(out.bassLevel == 0)
        for p in SculptParameter.allCases { #expect(out.amount(p) == 0, "\(p)") }
    }

    @Test func jawLowerHalfAddsTheFifthUpperHalfTheBass() {
        let quarter = defaults.evaluate(Self.face([.blendshape("jawOpen"): 0.25]))
        #expect(quarter.level(.fifth) == 0.5)
        #expect(quarter.bassLevel == 0)
        let half = defaults.evaluate(Self.face([.blendshape("jawOpen"): 0.5]))
        #expect(half.level(.fifth) == 1)
        #expect(half.bassLevel == 0)
        let wide = defaults.evaluate(Self.face([.blendshape("jawOpen"): 0.75]))
        #expect(wide.level(.fifth) == 1)
        #expect(wide.bassLevel == 0.5)
        #expect(wide.amount(.formantF1) == 0.75)  // jawOpen also opens the vowel, linearly
    }

    @Test func browCheekAndPuckerAddTheirTones() {
        #expect(defaults.evaluate(Self.face([.blendshape("browInnerUp"): 0.8])).level(.third) == 0.8)
        #expect(defaults.evaluate(Self.face([.blendshape("cheekPuff"): 0.6])).level(.seventh) == 0.6)
        let pucker = defaults.evaluate(Self.face([.blendshape("mouthPucker"): 0.7]))
        #expect(pucker.level(.seventh) == 0.7)
        #expect(pucker.level(.ninth) == 0.7)
    }

    @Test func twoMappingsToOneToneCombineWithMax() {
        let both = defaults.evaluate(Self.face([.blendshape("cheekPuff"): 0.3, .blendshape("mouthPucker"): 0.9]))
        #expect(both.level(.seventh) == 0.9)
        let reversed = defaults.evaluate(Self.face([.blendshape("cheekPuff"): 0.9, .blendshape("mouthPucker"): 0.3]))
        #expect(reversed.level(.seventh) == 0.9)
    }

    @Test func headAnglesUseDistanceFromCentreWithTheSeedRanges() {
        // Yaw: 0–0.25 from centre → cutoff 0…1, either direction.
        #expect(defaults.evaluate(Self.face([.headYaw: 0.625])).amount(.cutoff) == 0.5)
        #expect(defaults.evaluate(Self.face([.headYaw: 0.375])).amount(.cutoff) == 0.5)
        #expect(defaults.evaluate(Self.face([.headYaw: 1.0])).amount(.cutoff) == 1)
        // Pitch: 0–0.20 → F2; roll: 0–0.12 → resonance.
        #expect(abs(defaults.evaluate(Self.face([.headPitch: 0.6])).amount(.formantF2) - 0.5) < 1e-12)
        #expect(abs(defaults.evaluate(Self.face([.headRoll: 0.44])).amount(.resonance) - 0.5) < 1e-12)
    }

    @Test func smileDrivesBrightnessAndF2() {
        let out = defaults.evaluate(Self.face([.smile: 0.4]))
        #expect(out.amount(.brightness) == 0.4)
        #expect(out.amount(.formantF2) == 0.4)
    }

    @Test func invertAndWindowClamp() {
        let m = FaceMapping(.blendshape("eyeBlinkLeft"), to: .bass, inputMin: 0.2, inputMax: 0.6, invert: true)
        #expect(m.amount(for: 0) == 1)
        #expect(abs(m.amount(for: 0.4) - 0.5) < 1e-12)
        #expect(m.amount(for: 0.9) == 0)
        #expect(m.amount(for: .nan) == 0)
    }

    @Test func missingSignalsContributeNothing() {
        let out = defaults.evaluate { _ in nil }
        #expect(out.level(.root) == 1)
        #expect(out.level(.fifth) == 0)
    }

    @Test func badWindowsAreRejected() {
        #expect(throws: FaceMappingError.emptyWindow(source: "face.yaw", min: 0.5, max: 0.5)) {
            try FaceMapping(.headYaw, to: .bass, inputMin: 0.5, inputMax: 0.5).validate()
        }
        #expect(throws: FaceMappingError.windowOutOfRange(source: "face.arkit.jawOpen", min: 0, max: 2)) {
            try FaceMapping(.blendshape("jawOpen"), to: .bass, inputMin: 0, inputMax: 2).validate()
        }
        #expect(throws: Never.self) { try FaceMappingSet.hecateDefaults.validate() }
    }

    @Test func signalAndTargetNamesRoundTrip() {
        for s in [FaceSignal.headYaw, .headPitch, .headRoll, .smile, .blendshape("jawOpen")] {
            #expect(FaceSignal(s.description) == s)
        }
        #expect(FaceSignal("jawOpen") == .blendshape("jawOpen"))
        #expect(FaceSignal("face.nose.x") == nil)
        for t in ChordTone.allCases.map(FaceTarget.tone) + [.bass] + SculptParameter.allCases.map(FaceTarget.parameter) {
            #expect(FaceTarget(t.description) == t)
        }
        #expect(FaceTarget("tone.eleventh") == nil)
    }

    @Test func headAngleNormalisation() {
        #expect(FaceSignal.normalisedAngle(0, range: 45) == 0.5)
        #expect(FaceSignal.normalisedAngle(45, range: 45) == 1)
        #expect(FaceSignal.normalisedAngle(-90, range: 45) == 0)
        #expect(FaceSignal.normalisedAngle(.nan, range: 45) == 0.5)
    }
}
