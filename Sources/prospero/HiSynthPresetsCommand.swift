import ArgumentParser
import Foundation
import HiSynth
import HiSynthLibrary

/// `prospero hisynth presets`: the factory presets, then the user's.
struct HiSynthPresetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List the factory and user presets."
    )

    @Flag(help: "Print each preset's string after its name (tab-separated).")
    var strings = false

    func run() throws {
        let library = HiSynthPresetLibrary()
        let user = library.userPresets()
        var out = ""
        func line(_ kind: String, _ preset: HiSynthPreset) {
            out += "\(kind)\t\(preset.name)"
            if strings { out += "\t" + ((try? preset.encoded()) ?? "(cannot encode)") }
            out += "\n"
        }
        for preset in HiSynthPreset.factory { line("factory", preset) }
        for preset in user.presets { line("user", preset) }
        print(out, terminator: "")
        for problem in user.problems { HiSynthCommand.complain("skipped \(problem)") }
    }
}
