import ArgumentParser
import Foundation
import HiSynth
import HiSynthLibrary

/// `prospero hisynth preset import STRING|FILE|-`: save a preset into the user library.
struct HiSynthPresetImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Save a preset (string, JSON or string file, or - for standard input) into your preset library.",
        discussion: "A preset of the same name is replaced. Factory preset names are kept for the factory presets."
    )

    @Argument(help: "A preset string, a preset file (JSON or string), or - to read either from standard input.")
    var preset: String

    @Option(help: "Save under this name instead of the preset's own.")
    var name: String?

    func run() throws {
        let library = HiSynthPresetLibrary()
        do {
            var value: HiSynthPreset
            if preset == "-" {
                value = try HiSynthPresetLibrary.parse(try HiSynthCommand.readStandardInput(), path: "standard input")
            } else if FileManager.default.fileExists(atPath: preset) {
                value = try HiSynthPresetLibrary.read(file: URL(fileURLWithPath: preset))
            } else {
                value = try HiSynthPreset(string: preset)
            }
            if let name { value.name = name }
            let file = try library.save(value)
            print("saved '\(value.name)' to \(file.path)")
        } catch let error as ExitCode {
            throw error
        } catch {
            HiSynthCommand.complain("\(error)")
            throw ExitCode.failure
        }
    }
}
