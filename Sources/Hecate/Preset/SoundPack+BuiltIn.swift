extension SoundPack {
    /// Cathedral: triangle tone banks, warm and phone-speaker friendly; a darker filter range,
    /// open vowels and a long, damped hall.
    public static let cathedral = SoundPack(
        id: "cathedral",
        name: "Cathedral",
        summary: "Triangle choir in a long stone hall: warm, soft-edged, friendly to small speakers.",
        preset: VoicePreset(
            waveform: .triangle, detuneCents: 6,
            filterCutoffMin: 900, filterCutoffMax: 5_000, filterResonanceMin: 0.7, filterResonanceMax: 4,
            formantF1Min: 300, formantF1Max: 800, formantF2Min: 850, formantF2Max: 2_200, formantQ: 6,
            formantDryMix: 0.6, formantF1Mix: 0.5, formantF2Mix: 0.35,
            reverbSize: 0.85, reverbDecay: 4.5, reverbDamping: 0.45, reverbMix: 0.38,
            subLevel: 0.35, bassLevel: 0.55, droneLevel: 0.18, brightnessCap: 0.55,
            breathRate: 0.15, breathDepth: 0.12
        ),
        visual: "moss-grid"
    )

    /// Coven: sawtooth tone banks for harmonic richness; a brighter filter range with more
    /// resonance, sharper vowels and a darker, shorter room.
    public static let coven = SoundPack(
        id: "coven",
        name: "Coven",
        summary: "Sawtooth circle: rich, buzzing harmonics carved by vowels and a resonant filter.",
        preset: VoicePreset(
            waveform: .sawtooth, detuneCents: 11,
            filterCutoffMin: 600, filterCutoffMax: 7_000, filterResonanceMin: 0.9, filterResonanceMax: 7,
            formantF1Min: 250, formantF1Max: 900, formantF2Min: 800, formantF2Max: 2_500, formantQ: 9,
            formantDryMix: 0.45, formantF1Mix: 0.6, formantF2Mix: 0.5,
            reverbSize: 0.6, reverbDecay: 2.8, reverbDamping: 0.6, reverbMix: 0.3,
            subLevel: 0.4, bassLevel: 0.6, droneLevel: 0.15, brightnessCap: 0.45,
            breathRate: 0.15, breathDepth: 0.1
        ),
        visual: "spiral-plasma",
        // Longer trails and a stronger warp than the plasma's defaults: the coven's smoke.
        visualOverrides: SoundPackVisualOverrides(feedbackDecay: 0.9, warp: 0.7)
    )

    /// The packs that ship with Hecate, in menu order.
    public static let builtIn: [SoundPack] = [.cathedral, .coven]
}
