import ArgumentParser
import Foundation
import HiSynth

/// `prospero hisynth preset decode STRING|-`: a preset string as preset JSON.
struct HiSynthPresetDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print a preset string as preset JSON.",
        discussion: "Floats print as the exact Float16 values the string holds (-0.0 keeps its sign); enums print as names."
    )

    @Argument(help: "The preset string, or - to read it from standard input (strings can exceed the argument limit).")
    var string: String

    func run() throws {
        let text = string == "-" ? String(decoding: try HiSynthCommand.readStandardInput(), as: UTF8.self) : string
        do {
            print(try HiSynthPreset(string: text).json(), terminator: "")
        } catch {
            HiSynthCommand.complain(error.description)
            throw ExitCode.failure
        }
    }
}
