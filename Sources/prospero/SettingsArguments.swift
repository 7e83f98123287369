import ArgumentParser
import Ariel
import Foundation
import InstrumentSettings
import LiveHostPOSIX
import ProsperoSettingsFiles

/// The settings file options shared by `prospero hecate`, `prospero hands` (and read by `prospero
/// studio`): the file gives the starting values, options given on the command line override them,
/// `--save-settings` writes what is in effect back (with any controller learned in this run).
struct SettingsArguments: ParsableArguments {
    @Option(name: .customLong("settings"), help: ArgumentHelp("Settings file (default: $XDG_CONFIG_HOME/prospero/settings.json, else ~/.config/prospero/settings.json).", valueName: "file"))
    var path: String?

    @Flag(name: .customLong("no-settings"), help: "Ignore the settings file: defaults and options only.")
    var ignore = false

    @Flag(name: .customLong("save-settings"), help: "Save the settings in effect (the file's, overridden by the options) and learned controllers to the settings file.")
    var save = false

    var file: ProsperoSettingsFile {
        path.map { ProsperoSettingsFile(path: $0) } ?? ProsperoSettingsFile(environment: ProcessInfo.processInfo.environment)
    }

    /// The file's settings (defaults when it is missing, ignored or unusable: the warning goes to stderr)
    /// and whether a file was used.
    func load() -> (settings: ProsperoSettings, found: Bool) {
        guard !ignore else { return (ProsperoSettings(), false) }
        let loaded = file.load()
        if let warning = loaded.warning { FileHandle.standardError.write(Data("prospero: \(warning)\n".utf8)) }
        return (loaded.settings, loaded.found)
    }

    /// Saves when `--save-settings` was given; prints where.
    func saveIfAsked(_ settings: ProsperoSettings) throws {
        guard save else { return }
        do { try file.save(settings) } catch { throw ValidationError("\(error)") }
        StandardOutput.line("settings saved to \(file.path)")
    }
}

/// MIDI learn on the live commands: `--learn CONTROL` (repeatable) binds the next controllers moved on
/// JACK `midi_in`, in order; `--map FILE` loads bindings. Both add to the settings file's bindings.
struct LearnArguments: ParsableArguments {
    @Option(name: .customLong("learn"), help: ArgumentHelp("MIDI learn: the next controller moved on JACK midi_in binds to this control (repeatable, learned in order; hecate: bpm, tremoloDepth, bassLevel, droneLevel, reverb; hands: synth.attack … synth.gain); the binding is printed (and saved with --save-settings).", valueName: "control"))
    var controls: [String] = []

    @Option(name: .customLong("map"), help: ArgumentHelp("Load MIDI controller bindings from this JSON file ({\"midi\": [...]}, or a settings file).", valueName: "file"))
    var map: String?

    /// Full control paths for `instrument` ("bpm" or "hecate.bpm" → "hecate.bpm"), validated.
    func paths(instrument: String) throws -> [String] {
        let allowed = MIDILearnableControl.all.map(\.path).filter { $0.hasPrefix(instrument + ".") }
        return try controls.map { name in
            let full = name.hasPrefix(instrument + ".") ? name : "\(instrument).\(name)"
            guard allowed.contains(full) else {
                throw ValidationError("--learn '\(name)' is not a learnable control; one of: "
                    + allowed.map { String($0.dropFirst(instrument.count + 1)) }.joined(separator: ", "))
            }
            return full
        }
    }

    /// The bindings in `--map FILE` (none without it).
    func mappings() throws -> [MIDIBinding<String>] {
        guard let map else { return [] }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: map)) } catch { throw ValidationError("--map '\(map)': cannot read the file") }
        guard data.count <= ProsperoSettings.maximumBytes else {
            throw ValidationError("--map '\(map)': \(data.count) bytes; a mapping file is at most \(ProsperoSettings.maximumBytes)")
        }
        do { return try ProsperoSettings.mappings(json: [UInt8](data)) } catch { throw ValidationError("--map '\(map)': \(error)") }
    }
}
