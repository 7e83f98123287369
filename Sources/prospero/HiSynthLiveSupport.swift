import ArgumentParser
import Foundation
import HiSynth
import HiSynthLibrary

/// What `hisynth render` and `hisynth play` share: the preset and song arguments, with errors printed
/// the way every `hisynth` command prints them.
enum HiSynthLiveSupport {
    /// The preset `argument` names (file, name, or string; nil: HiSynth Key, the app's first preset).
    static func preset(_ argument: String?) throws -> HiSynthPreset {
        guard let argument else { return HiSynthPreset.factory[0] }
        do {
            return try HiSynthPresetLibrary().resolve(argument)
        } catch {
            HiSynthCommand.complain("--preset: \(error)")
            throw ExitCode.failure
        }
    }

    /// The song in the file at `path` (its title from the file name, "Composer - Title.mid"). Files over
    /// 64 MiB and songs over an hour are refused with a message.
    static func song(at path: String) throws -> HiSynthSong {
        let url = URL(fileURLWithPath: path)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > 64 << 20 {
            HiSynthCommand.complain("\(path): \(size) bytes is too large for a MIDI song")
            throw ExitCode.failure
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            HiSynthCommand.complain("cannot read \(path): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        do {
            // A built-in song written by `hisynth songs` keeps its "Composer - Title".
            let base = url.deletingPathExtension().lastPathComponent
            let name = HiSynthSongBook.all.first { $0.fileName == url.lastPathComponent }?.name ?? base
            return try HiSynthSong(bytes: bytes, name: name)
        } catch {
            HiSynthCommand.complain("\(path): \(error)")
            throw ExitCode.failure
        }
    }
}
