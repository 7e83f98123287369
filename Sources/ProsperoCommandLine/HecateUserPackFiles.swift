import Foundation
import InstrumentSettings

/// The user's Hecate pack files, read at the edge for `prospero studio` and `prospero hecate`:
/// every `*.json` in `HecatePackLibrary.userPackDirectory` (`$XDG_CONFIG_HOME/prospero/packs`, else
/// `~/.config/prospero/packs`), in name order, each validated by `SoundPack(json:)` as `--pack FILE` is.
/// The studio's pages only see the packs' ids and names; a file that is not loaded is named in `problems`.
public enum HecateUserPackFiles {
    /// A pack file larger than this is not read (a pack is a few kilobytes of JSON).
    public static let maximumFileBytes = 256 * 1024

    /// The library of built-in and user packs, the directory it read (nil when neither variable gives one),
    /// and one line per file that was skipped.
    public static func library(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (library: HecatePackLibrary, directory: String?, problems: [String]) {
        guard let directory = HecatePackLibrary.userPackDirectory(environment: environment) else {
            return (HecatePackLibrary(), nil, [])
        }
        let (files, unread) = read(directory: directory)
        let library = HecatePackLibrary(userFiles: files)
        return (library, directory, unread + library.problems)
    }

    /// The `*.json` files of `directory` (a missing directory is no packs, not an error).
    public static func read(directory: String) -> (files: [(name: String, data: Data)], problems: [String]) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch { return ([], []) }
        var files: [(name: String, data: Data)] = []
        var problems: [String] = []
        // One more than the library lists, so that it can say the rest were ignored.
        for name in names.filter({ $0.lowercased().hasSuffix(".json") }).sorted()
            .prefix(HecatePackLibrary.maximumUserPacks + 1) {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]))
            guard size?.isRegularFile == true else { continue }
            guard let bytes = size?.fileSize, bytes <= maximumFileBytes else {
                problems.append("\(name): larger than \(maximumFileBytes / 1024) KiB; ignored")
                continue
            }
            do { files.append((name, try Data(contentsOf: url))) } catch {
                problems.append("\(name): cannot be read; ignored")
            }
        }
        return (files, problems)
    }
}
