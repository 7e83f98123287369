import HiSynth
import InstrumentSettings
import LiveHost

extension StudioInstrumentRegistry {
    /// The types ``standard(hecatePacks:frameClock:midiClock:hisynthPresets:)`` registers, in Home's order:
    /// what a settings file and MIDI learn may name (their sections, their learnable controls).
    public static let standardTypes: [any StudioInstrument.Type] = [
        StudioToneInstrument.self, HecateStudioInstrument.self, HandsStudioInstrument.self, HiSynthStudioInstrument.self,
        HarmonyStudioInstrument.self, VibeStudioInstrument.self, TouchStudioInstrument.self,
    ]

    /// Every instrument `prospero studio` offers, in Home's order.
    ///
    /// Each instrument's owner adds exactly one `register` line in its own block below (the blocks are
    /// kept apart so that parallel branches merge without conflicts).
    /// - Parameters:
    ///   - hecatePacks: Hecate's packs: the built-ins and the user's files the edge read.
    ///   - frameClock: the audio clock with the input delay (JACK's): touches and face frames are due on it.
    ///   - midiClock: the MIDI clock arriving at the audio driver (its ``MIDIClockFollower``): the tempo
    ///     Hecate follows, as `prospero hecate` does, the one the hands' live frames show, and the one HiSynth's
    ///     song follows, as `prospero hisynth play`'s does.
    ///   - hisynthPresets: HiSynth's user presets, as the edge that owns their files reads and writes them.
    ///   - hecateMIDIChannel: Hecate plays what it sounds as MIDI on this channel (JACK `midi_out`), nil for none.
    public static func standard(hecatePacks: HecatePackLibrary = HecatePackLibrary(),
                                frameClock: (any LiveFrameClock)? = nil,
                                midiClock: (any LiveClock)? = nil,
                                hisynthPresets: (any HiSynthPresetStore)? = nil,
                                hecateMIDIChannel: Int? = nil) -> StudioInstrumentRegistry {
        var registry = StudioInstrumentRegistry()
        registry.register(StudioToneInstrument.self) { StudioToneInstrument() }

        // Hecate (studio-hecate):
        registry.register(HecateStudioInstrument.self) {
            HecateStudioInstrument(library: hecatePacks, clock: midiClock, frameClock: frameClock, midiChannel: hecateMIDIChannel)
        }

        // ---

        // Hands and touch (studio-hands):
        registry.register(HandsStudioInstrument.self) { try HandsStudioInstrument(frameClock: frameClock, clock: midiClock) }

        // ---

        // HiSynth's rack (hisynth-rack):
        registry.register(HiSynthStudioInstrument.self) { HiSynthStudioInstrument(library: hisynthPresets, clock: midiClock) }

        // ---

        // The three games of seed 003 (games-haptics):
        registry.register(HarmonyStudioInstrument.self) { HarmonyStudioInstrument(frameClock: frameClock) }
        registry.register(VibeStudioInstrument.self) { VibeStudioInstrument(frameClock: frameClock) }
        registry.register(TouchStudioInstrument.self) { TouchStudioInstrument(frameClock: frameClock) }

        // ---

        return registry
    }
}
