import ArgumentParser
import Foundation
import HiSynth

/// `prospero hisynth songs [--write DIR]`: the songs the project made for HiSynth's player, as
/// Standard MIDI Files.
struct HiSynthSongsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "songs",
        abstract: "List HiSynth's built-in songs, or write them as MIDI files."
    )

    @Option(help: "Write every song into this directory as NAME.mid.")
    var write: String?

    func run() throws {
        for entry in HiSynthSongBook.all {
            let song = entry.song
            let line = String(format: "%@  %@ (%@), %.1f s, %d notes", entry.fileName, song.title, song.composer ?? "—", song.duration, song.notes.count)
            guard let write else {
                print(line)
                continue
            }
            let url = URL(fileURLWithPath: write).appendingPathComponent(entry.fileName)
            do {
                try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
                try Data(try entry.file.encoded()).write(to: url)
            } catch {
                HiSynthCommand.complain("cannot write \(url.path): \(error)")
                throw ExitCode.failure
            }
            print("wrote \((write as NSString).appendingPathComponent(entry.fileName)): \(song.title), \(String(format: "%.1f", song.duration)) s")
        }
    }
}
