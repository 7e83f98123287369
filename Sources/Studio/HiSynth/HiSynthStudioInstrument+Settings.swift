import HiSynth
import InstrumentSettings

extension HiSynthStudioInstrument {
    /// The rack's continuous knobs (``HiSynthRackControl/learnableControls``).
    public static var learnableControls: [MIDILearnableControl] { HiSynthRackControl.learnableControls }

    /// The settings file's `hisynth` section, as the live adapter keeps it (`prospero hisynth play` reads the same).
    public func savedSettings() -> StudioValue? { live.savedSettings() }

    public func restoreSettings(_ section: StudioValue) -> [String] { live.restoreSettings(section) }
}
