extension StudioInstrumentRegistry {
    /// Every instrument `prospero studio` offers, in Home's order.
    ///
    /// Each instrument's owner adds exactly one `register` line in its own block below (the blocks are
    /// kept apart so that parallel branches merge without conflicts).
    public static func standard() -> StudioInstrumentRegistry {
        var registry = StudioInstrumentRegistry()
        registry.register(StudioToneInstrument.self) { StudioToneInstrument() }

        // Hecate (studio-hecate):
        registry.register(HecateStudioInstrument.self) { HecateStudioInstrument() }

        // ---

        // Hands and touch (studio-hands):
        registry.register(HandsStudioInstrument.self) { try HandsStudioInstrument() }

        // ---

        // The three games of seed 003 (games-haptics):
        registry.register(HarmonyStudioInstrument.self) { HarmonyStudioInstrument() }
        registry.register(VibeStudioInstrument.self) { VibeStudioInstrument() }
        registry.register(TouchStudioInstrument.self) { TouchStudioInstrument() }

        // ---

        return registry
    }
}
