import ArgumentParser

/// `prospero hisynth preset …`: convert between preset strings and preset JSON, add to the library.
struct HiSynthPresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "Decode and encode preset strings; import presets into your library.",
        subcommands: [HiSynthPresetDecodeCommand.self, HiSynthPresetEncodeCommand.self, HiSynthPresetImportCommand.self]
    )
}
