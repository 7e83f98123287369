import Foundation
import Hecate

/// The sound packs the studio offers: the built-in ones, then the user's pack files, each by id.
/// Pages choose a pack by its id only; they never name a file on the server (the edge reads the
/// files and hands their bytes here).
public struct HecatePackLibrary: Sendable {
    public struct Entry: Sendable, Hashable {
        public var pack: SoundPack
        public var builtIn: Bool
    }

    public private(set) var entries: [Entry]
    /// One line per user file that was not loaded (bad JSON, a field out of range, an id taken).
    public private(set) var problems: [String] = []

    /// The visuals the page knows; a pack naming another gets the one that suits its waveform.
    public static let visuals = ["moss-grid", "spiral-plasma"]

    /// At most this many user packs are listed (a directory full of files must not flood the page).
    public static let maximumUserPacks = 64

    /// - Parameter userFiles: (file name for messages, contents) of the user's pack files.
    public init(userFiles: [(name: String, data: Data)] = []) {
        entries = SoundPack.builtIn.map { Entry(pack: $0, builtIn: true) }
        for file in userFiles {
            guard entries.count < SoundPack.builtIn.count + Self.maximumUserPacks else {
                problems.append("\(file.name): more than \(Self.maximumUserPacks) user packs; ignored")
                continue
            }
            do throws(SoundPackError) {
                let loaded = try SoundPack(json: file.data)
                guard pack(id: loaded.id) == nil else {
                    problems.append("\(file.name): pack id '\(loaded.id)' is already taken; ignored")
                    continue
                }
                entries.append(Entry(pack: loaded, builtIn: false))
            } catch {
                problems.append("\(file.name): \(error)")
            }
        }
    }

    /// Where the user's pack files live: `$XDG_CONFIG_HOME/prospero/packs` (or `~/.config/prospero/packs`),
    /// next to the settings file. The edge lists its `*.json` files and passes their bytes to `init(userFiles:)`.
    public static func userPackDirectory(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/prospero/packs" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.config/prospero/packs"
    }

    public func pack(id: String) -> SoundPack? { entries.first { $0.pack.id == id }?.pack }

    public var ids: [String] { entries.map(\.pack.id) }

    /// The visual the page draws for `pack`: its own when the page knows it, else the moss grid for
    /// soft waveforms and the spiral plasma for bright ones (as the built-ins pair them).
    public static func visual(for pack: SoundPack) -> String {
        if let v = pack.visual, visuals.contains(v) { return v }
        switch pack.preset.waveform {
        case .sine, .triangle: return "moss-grid"
        case .sawtooth, .square: return "spiral-plasma"
        }
    }

    /// The list the page's pack menu shows.
    public var json: StudioValue {
        .array(entries.map { e in
            .object([
                "id": .string(e.pack.id), "name": .string(e.pack.name), "summary": .string(e.pack.summary),
                "visual": .string(Self.visual(for: e.pack)), "builtIn": .bool(e.builtIn),
            ])
        })
    }

    /// What Immerse needs for `pack`: the shader and the pack's overrides (absent fields keep the shader's).
    public static func visualJSON(for pack: SoundPack) -> StudioValue {
        var overrides: [String: StudioValue] = [:]
        if let o = pack.visualOverrides {
            if let d = o.feedbackDecay { overrides["feedbackDecay"] = .number(d) }
            if let w = o.warp { overrides["warp"] = .number(w) }
            if let p = o.palette { overrides["palette"] = .array(p.map { .string($0) }) }
        }
        return .object(["shader": .string(visual(for: pack)), "overrides": .object(overrides)])
    }
}
