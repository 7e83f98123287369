import Ariel
import Hecate

/// Everything Prospero remembers between runs: Hecate's screen (pack, key, tempo, levels, play-along
/// and route), the hands screen, and the MIDI controllers learned for both. One value, read by
/// `prospero hecate`, `prospero hands` and `prospero studio` alike; the file I/O lives at the edges
/// (`ProsperoSettingsFile` in ProsperoSettingsFiles), the JSON codec here (``init(json:)``, ``jsonText``).
///
/// The file (`$XDG_CONFIG_HOME/prospero/settings.json`):
/// ```json
/// {"version": 1,
///  "hecate": {"pack": "coven", "key": "D", "bpm": 96, "playAlong": true, "route": "auto", "bassLevel": 0.4, …},
///  "hands": {"key": "C", "scale": "majorPentatonic", "low": 48, "high": 72, "synth": {"attack": 0.01, …}, …},
///  "midi": [{"control": "hecate.bpm", "source": "cc", "channel": 1, "controller": 74, "min": 20, "max": 300}]}
/// ```
/// Every member is optional (a missing one keeps its default); an unknown member is ignored, so an
/// older Prospero reads a newer file of the same version.
public struct ProsperoSettings: Sendable, Equatable {
    /// The format version this build writes and reads.
    public static let version = 1
    /// A settings file is small; anything larger is refused before parsing (64 KiB).
    public static let maximumBytes = 64 * 1024
    /// Most MIDI bindings kept (one per control is the norm; this bounds a hostile file).
    public static let maximumBindings = 256

    /// Hecate's screen. Its `route` is the one in use when ``hecateRouteIsAutomatic`` is false.
    public var hecate = HecateStudioSettings()
    /// True: the output route comes from what the JACK server reports (a Bluetooth sink gets the
    /// −14 dBFS play-along ceiling); false: ``hecate``'s `route` as the player set it.
    public var hecateRouteIsAutomatic = true
    public var hands = HandsStudioSettings()
    /// Learned controllers: `parameter` is a control path (`hecate.bpm`, `hands.synth.delayMix`).
    public var midi: [MIDIBinding<String>] = []
    /// The sections of the other instruments, by id (`hisynth`: its preset string and octave), as each
    /// instrument writes and reads them (``StudioInstrument/savedSettings()``); kept as read, so a section
    /// of an instrument this build lacks survives a save.
    public var sections: [String: StudioValue] = [:]
    /// Sections kept at most (a hostile file cannot grow this).
    public static let maximumSections = 32

    public init() {}

    /// Instrument `id`'s section, as the instrument reads it (``StudioInstrument/restoreSettings(_:)``):
    /// Hecate's carries the route in use (the detected one while it is automatic).
    public func section(for id: String) -> StudioValue? {
        switch id {
        case "hecate": return Self.hecateJSON(hecate, routeIsAutomatic: false)
        case "hands": return Self.handsJSON(hands)
        default: return sections[id]
        }
    }

    /// Stores instrument `id`'s section as it wrote it (``StudioInstrument/savedSettings()``); Hecate's and
    /// the hands' are read into their typed settings (which the live commands use), so a section they
    /// refuse is an error naming the field.
    public mutating func setSection(_ id: String, _ value: StudioValue) throws(ProsperoSettingsError) {
        switch id {
        case "hecate":
            let automatic = hecateRouteIsAutomatic
            try readHecate(value)
            hecateRouteIsAutomatic = automatic
        case "hands": try readHands(value)
        case "version", "midi": throw ProsperoSettingsError(.badField, field: id, "is not an instrument's section")
        default:
            guard value.object != nil else { throw ProsperoSettingsError(.badField, field: id, "must be an object") }
            sections[id] = value
        }
    }

    /// The bindings as a mapping table (a later binding of the same control replaces an earlier one).
    public var mappingTable: MIDIMappingTable<String> { MIDIMappingTable(bindings: midi) }
}
