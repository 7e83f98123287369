import LiveHost

extension StudioInstrumentRegistry {
    /// Every instrument `prospero studio` offers, in Home's order.
    ///
    /// Each instrument's owner adds exactly one `register` line in its own block below (the blocks are
    /// kept apart so that parallel branches merge without conflicts).
    /// - Parameters:
    ///   - hecatePacks: Hecate's packs: the built-ins and the user's files the edge read.
    ///   - frameClock: the audio clock with the input delay (JACK's): studio touches are due on it.
    public static func standard(hecatePacks: HecatePackLibrary = HecatePackLibrary(),
                                frameClock: (any LiveFrameClock)? = nil) -> StudioInstrumentRegistry {
        var registry = StudioInstrumentRegistry()
        registry.register(StudioToneInstrument.self) { StudioToneInstrument() }

        // Hecate (studio-hecate):
        registry.register(HecateStudioInstrument.self) { HecateStudioInstrument(library: hecatePacks) }

        // ---

        // Hands and touch (studio-hands):
        registry.register(HandsStudioInstrument.self) { try HandsStudioInstrument(frameClock: frameClock) }

        // ---

        // HiSynth's rack (hisynth-rack):
        registry.register(HiSynthStudioInstrument.self) { HiSynthStudioInstrument() }

        // ---

        // The three games of seed 003 (games-haptics):
        registry.register(HarmonyStudioInstrument.self) { HarmonyStudioInstrument() }
        registry.register(VibeStudioInstrument.self) { VibeStudioInstrument() }
        registry.register(TouchStudioInstrument.self) { TouchStudioInstrument() }

        // ---

        return registry
    }
}
