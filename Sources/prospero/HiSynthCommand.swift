import ArgumentParser
import Foundation
import HiSynth
import HiSynthLibrary

/// `prospero hisynth`: the two-oscillator synth, its presets and its song player.
struct HiSynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hisynth",
        abstract: "HiSynth: two oscillator layers, ADSR, two filters, three LFOs, four effects; presets as shareable strings.",
        discussion: """
            Presets: the 15 factory presets are always there; your own live in \
            $XDG_DATA_HOME/prospero/hisynth/ (default ~/.local/share/prospero/hisynth/), one JSON file each. \
            Wherever a preset is asked for (--preset X), X is tried as an existing file (preset JSON or a \
            preset string), then a preset name (exact, then ignoring case), then a preset string.
            """,
        subcommands: HiSynthCommand.subcommands
    )

    /// The `hisynth` subcommands; add new ones here.
    static let subcommands: [any ParsableCommand.Type] = [
        HiSynthPresetsCommand.self, HiSynthPresetCommand.self,
        HiSynthRenderCommand.self, HiSynthPlayCommand.self, HiSynthSongsCommand.self,
    ]

    /// Prints `message` to standard error as `prospero hisynth: message`.
    static func complain(_ message: String) {
        FileHandle.standardError.write(Data("prospero hisynth: \(message)\n".utf8))
    }

    /// The most bytes read from a file or standard input for one preset (no preset is near it).
    static let inputLimit = 1 << 20

    /// The text of `argument`, or of standard input when it is `-`, capped at `inputLimit`.
    static func readStandardInput() throws -> Data {
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 65_536), !chunk.isEmpty {
            data.append(chunk)
            if data.count > inputLimit {
                complain("standard input is larger than 1 MiB; not a preset")
                throw ExitCode.failure
            }
        }
        return data
    }
}
