import HiSynth

/// Why the user preset library or `--preset` resolution failed, naming the file or argument.
public enum HiSynthPresetLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file could not be read or written (`reason` from the system).
    case fileFailed(path: String, reason: String)
    /// A preset file's content is not a preset (JSON or preset string).
    case badPresetFile(path: String, HiSynthPresetError)
    /// `--preset X`: no such file, no preset of that name, and not a preset string.
    case notFound(argument: String, stringError: HiSynthPresetError?)
    /// Saving under a factory preset's name (the 15 factory presets stay as they are).
    case factoryName(String)
    /// A name whose file name would exceed the file system's limit.
    case nameTooLong(String)

    public var description: String {
        switch self {
        case .fileFailed(let path, let reason):
            "\(path): \(reason)"
        case .badPresetFile(let path, let error):
            "\(path): \(error)"
        case .notFound(let argument, let stringError):
            if let stringError {
                "'\(argument)' is no preset file, no preset name (see `prospero hisynth presets`), and not a valid preset string: \(stringError)"
            } else {
                "'\(argument)' is no preset file and no preset name (see `prospero hisynth presets`)."
            }
        case .factoryName(let name):
            "'\(name)' is a factory preset's name; choose another name."
        case .nameTooLong(let name):
            "the preset name '\(name.prefix(40))…' is too long to be a file name."
        }
    }
}
