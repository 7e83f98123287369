/// A named sound for Hecate: a voice preset plus what the display shows with it.
///
/// Built-in packs are `SoundPack.cathedral` and `SoundPack.coven`; user packs are JSON files
/// with the same fields (see `SoundPack(json:)`).
public struct SoundPack: Hashable, Sendable, Codable, Identifiable {
    /// Stable identifier, lower-case letters, digits and dashes (used on the command line).
    public var id: String
    public var name: String
    public var summary: String
    public var preset: VoicePreset
    /// Visual theme for the display: a shader/palette name the web UI knows ("moss-grid", "spiral-plasma").
    public var visual: String?
    /// The pack's changes to its visual's defaults (trail decay, warp, palette), if any.
    public var visualOverrides: SoundPackVisualOverrides?
    /// Pack file format version; this code reads version 1.
    public var formatVersion: Int

    public init(id: String, name: String, summary: String, preset: VoicePreset, visual: String? = nil,
                visualOverrides: SoundPackVisualOverrides? = nil) {
        self.id = id
        self.name = name
        self.summary = summary
        self.preset = preset
        self.visual = visual
        self.visualOverrides = visualOverrides
        self.formatVersion = 1
    }
}
