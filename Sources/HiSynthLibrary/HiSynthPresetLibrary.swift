import Foundation
import HiSynth
import ProsperoFiles

/// The user's HiSynth presets on disk, beside the 15 factory presets that are always there.
///
/// One JSON file per preset (the documented preset JSON) in `directory`, by default
/// `$XDG_DATA_HOME/prospero/hisynth/`, or `~/.local/share/prospero/hisynth/` when XDG_DATA_HOME is
/// unset or not absolute (XDG Base Directory spec). Writes are ``AtomicFile``'s (a private temporary file
/// beside the preset, then `rename(2)`), so a reader never sees half a preset; a new preset file is 0600.
///
/// This is an edge module: it touches files. The engine and codec (module HiSynth) never do.
public struct HiSynthPresetLibrary: Sendable {
    /// Where the user presets live.
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The library in the XDG data directory of `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(directory: Self.defaultDirectory(environment: environment))
    }

    /// `$XDG_DATA_HOME/prospero/hisynth`, or `$HOME/.local/share/prospero/hisynth`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("prospero/hisynth", isDirectory: true)
    }

    /// The user presets that read, sorted by name, and the files that did not (each with why).
    /// A missing directory is an empty library.
    public func userPresets() -> (presets: [HiSynthPreset], problems: [HiSynthPresetLibraryError]) {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
        } catch {
            if !FileManager.default.fileExists(atPath: directory.path) { return ([], []) }
            return ([], [.fileFailed(path: directory.path, reason: "cannot list the directory")])
        }
        var presets: [HiSynthPreset] = []
        var problems: [HiSynthPresetLibraryError] = []
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            do {
                presets.append(try Self.read(file: file))
            } catch {
                problems.append(error)
            }
        }
        return (presets.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }, problems)
    }

    /// The factory presets (app order), then the user presets (by name).
    public func allPresets() -> [HiSynthPreset] {
        HiSynthPreset.factory + userPresets().presets
    }

    /// Saves `preset` as `<name>.json`, replacing a user preset of the same name. Atomic.
    ///
    /// - Returns: the file written.
    /// - Throws: `.factoryName` for a factory preset's name, `.nameTooLong`, `.fileFailed`.
    @discardableResult
    public func save(_ preset: HiSynthPreset) throws(HiSynthPresetLibraryError) -> URL {
        if HiSynthPreset.factory.contains(where: { $0.name == preset.name }) { throw .factoryName(preset.name) }
        let fileName = Self.fileName(for: preset.name)
        guard fileName.utf8.count <= 255 else { throw .nameTooLong(preset.name) }
        // Refuse values the string form could not carry, before touching the disk.
        do { _ = try preset.encoded() } catch { throw .badPresetFile(path: fileName, error) }
        let target = directory.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .fileFailed(path: directory.path, reason: "cannot create the directory")
        }
        do throws(AtomicFileError) {
            try AtomicFile.write(Array(preset.json().utf8), to: target.path)
        } catch {
            throw .fileFailed(path: target.path, reason: "\(error.step): \(error.reason)")
        }
        return target
    }

    /// Removes the user preset called `name`. Returns false when there was none.
    @discardableResult
    public func remove(named name: String) throws(HiSynthPresetLibraryError) -> Bool {
        let target = directory.appendingPathComponent(Self.fileName(for: name))
        guard FileManager.default.fileExists(atPath: target.path) else { return false }
        do {
            try FileManager.default.removeItem(at: target)
        } catch {
            throw .fileFailed(path: target.path, reason: "cannot remove")
        }
        return true
    }

    /// Resolves a `--preset X` argument, in this order: an existing file (preset JSON, or a preset
    /// string), a preset name (factory or user; exact, then case-insensitive), a preset string.
    public func resolve(_ argument: String) throws(HiSynthPresetLibraryError) -> HiSynthPreset {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), !isDirectory.boolValue {
            return try Self.read(file: URL(fileURLWithPath: argument))
        }
        let presets = allPresets()
        if let exact = presets.first(where: { $0.name == argument }) { return exact }
        let folded = argument.lowercased()
        if let loose = presets.first(where: { $0.name.lowercased() == folded }) { return loose }
        guard argument.contains(":") else { throw .notFound(argument: argument, stringError: nil) }
        do {
            return try HiSynthPreset(string: argument)
        } catch {
            throw .notFound(argument: argument, stringError: error)
        }
    }

    /// Reads a preset file: preset JSON (starts with `{`) or a preset string (whitespace around it
    /// ignored). Files over 1 MiB are refused (no preset is near that).
    public static func read(file: URL) throws(HiSynthPresetLibraryError) -> HiSynthPreset {
        let data: Data
        guard FileManager.default.fileExists(atPath: file.path) else { throw .fileFailed(path: file.path, reason: "no such file") }
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            if let size = attributes[.size] as? NSNumber, size.intValue > 1 << 20 {
                throw HiSynthPresetLibraryError.fileFailed(path: file.path, reason: "larger than 1 MiB; not a preset")
            }
            data = try Data(contentsOf: file)
        } catch let error as HiSynthPresetLibraryError {
            throw error
        } catch {
            throw .fileFailed(path: file.path, reason: "cannot read")
        }
        return try parse(data, path: file.path)
    }

    /// Parses preset file content (JSON or a preset string); `path` names it in errors.
    public static func parse(_ data: Data, path: String) throws(HiSynthPresetLibraryError) -> HiSynthPreset {
        let firstVisible = data.first { !(Character(Unicode.Scalar($0)).isWhitespace) }
        do {
            if firstVisible == UInt8(ascii: "{") || firstVisible == UInt8(ascii: "[") {
                return try HiSynthPreset(json: data)
            }
            return try HiSynthPreset(string: String(decoding: data, as: UTF8.self))
        } catch {
            throw .badPresetFile(path: path, error)
        }
    }

    /// The file name for a preset name: the name itself, with '/', '%', control characters and a
    /// leading '.' percent-encoded, so every name maps to its own file and none escapes the directory.
    public static func fileName(for name: String) -> String {
        var out = ""
        for (index, scalar) in name.unicodeScalars.enumerated() {
            if scalar == "/" || scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F || (index == 0 && scalar == ".") {
                out += String(format: "%%%02X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return (out.isEmpty ? "%" : out) + ".json"
    }
}
