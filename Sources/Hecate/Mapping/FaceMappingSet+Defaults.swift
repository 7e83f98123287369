extension FaceMappingSet {
    /// Hecate's default voicing and sculpting, exactly as the seed's tables give them.
    ///
    /// Voicing: at rest the root drones; the lower half of jawOpen adds the 5th and the upper half
    /// the bass; browInnerUp adds the 3rd; cheekPuff the 7th; mouthPucker the 7th and 9th.
    /// Sculpting: yaw → cutoff (0–0.25 from centre), pitch → F2 (0–0.20 from centre),
    /// roll → resonance (0–0.12 from centre), smile → brightness, jawOpen → F1, smile → F2.
    public static let hecateDefaults = FaceMappingSet(
        mappings: voicingDefaults + sculptingDefaults,
        restLevels: [.root: 1]
    )

    public static let voicingDefaults: [FaceMapping] = [
        FaceMapping(.blendshape("jawOpen"), to: .tone(.fifth), inputMin: 0, inputMax: 0.5),
        FaceMapping(.blendshape("jawOpen"), to: .bass, inputMin: 0.5, inputMax: 1),
        FaceMapping(.blendshape("browInnerUp"), to: .tone(.third)),
        FaceMapping(.blendshape("cheekPuff"), to: .tone(.seventh)),
        FaceMapping(.blendshape("mouthPucker"), to: .tone(.seventh)),
        FaceMapping(.blendshape("mouthPucker"), to: .tone(.ninth)),
    ]

    public static let sculptingDefaults: [FaceMapping] = [
        FaceMapping(.headYaw, to: .parameter(.cutoff), inputMin: 0, inputMax: 0.25, absFromCenter: true),
        FaceMapping(.headPitch, to: .parameter(.formantF2), inputMin: 0, inputMax: 0.20, absFromCenter: true),
        FaceMapping(.headRoll, to: .parameter(.resonance), inputMin: 0, inputMax: 0.12, absFromCenter: true),
        FaceMapping(.smile, to: .parameter(.brightness)),
        FaceMapping(.blendshape("jawOpen"), to: .parameter(.formantF1)),
        FaceMapping(.smile, to: .parameter(.formantF2)),
    ]
}
