import ArgumentParser
import Foundation
import HiSynth
import HiSynthLibrary

/// `prospero hisynth preset encode FILE.json|-`: preset JSON as a preset string.
struct HiSynthPresetEncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Print preset JSON as a preset string (the form HiSynth shares and imports).",
        discussion: "Numbers round to the nearest Float16, as the original app stores them."
    )

    @Argument(help: "A preset JSON file, or - to read the JSON from standard input.")
    var file: String

    func run() throws {
        do {
            let preset: HiSynthPreset
            if file == "-" {
                preset = try HiSynthPreset(json: try HiSynthCommand.readStandardInput())
            } else {
                preset = try HiSynthPresetLibrary.read(file: URL(fileURLWithPath: file))
            }
            print(try preset.encoded())
        } catch let error as ExitCode {
            throw error
        } catch {
            HiSynthCommand.complain("\(error)")
            throw ExitCode.failure
        }
    }
}
