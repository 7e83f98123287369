/// A pack's optional changes to its visual's defaults (the seed's per-pack `VizConfig` override):
/// how long the picture's trails last, how much the shader warps, and its palette.
///
/// Every field is optional; an absent field keeps the shader's default. The display owns the
/// defaults; the pack only says where it differs.
public struct SoundPackVisualOverrides: Hashable, Sendable, Codable {
    /// Fraction of the previous frame kept each frame (the feedback trail), 0…0.99.
    public var feedbackDecay: Double?
    /// Strength of the shader's domain warp, 0…1.
    public var warp: Double?
    /// Up to four colours, darkest first, as "#RRGGBB".
    public var palette: [String]?

    public init(feedbackDecay: Double? = nil, warp: Double? = nil, palette: [String]? = nil) {
        self.feedbackDecay = feedbackDecay
        self.warp = warp
        self.palette = palette
    }

    /// The allowed range of `feedbackDecay` (1 would never fade: the picture would saturate).
    public static let feedbackDecayRange: ClosedRange<Double> = 0...0.99
    public static let warpRange: ClosedRange<Double> = 0...1
    public static let maximumPaletteColours = 4

    /// Whether `text` is a colour as "#RRGGBB".
    public static func isColour(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return false }
        return utf8.dropFirst().allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }

    public func validate() throws(SoundPackError) {
        if let d = feedbackDecay, !(d.isFinite && Self.feedbackDecayRange.contains(d)) {
            throw .invalidValue(field: "visualOverrides.feedbackDecay", reason: "must be 0…0.99")
        }
        if let w = warp, !(w.isFinite && Self.warpRange.contains(w)) {
            throw .invalidValue(field: "visualOverrides.warp", reason: "must be 0…1")
        }
        if let palette {
            guard (1...Self.maximumPaletteColours).contains(palette.count) else {
                throw .invalidValue(field: "visualOverrides.palette", reason: "needs 1…4 colours")
            }
            for (i, c) in palette.enumerated() where !Self.isColour(c) {
                throw .invalidValue(field: "visualOverrides.palette[\(i)]", reason: "'\(c.prefix(16))' is not a colour #RRGGBB")
            }
        }
    }
}
