/// An 8-bit RGBA colour for plots.
public struct PlotColor: Sendable, Hashable {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// From 0xRRGGBB.
    public init(hex: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF), alpha: alpha)
    }

    /// "#rrggbb" for SVG.
    public var svgHex: String {
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [red, green, blue] { s.append(digits[Int(v >> 4)]); s.append(digits[Int(v & 15)]) }
        return s
    }

    public static let background = PlotColor(hex: 0x14141C)
    public static let panel = PlotColor(hex: 0x1E1E2A)
    public static let grid = PlotColor(hex: 0x34344A)
    public static let label = PlotColor(hex: 0xC8C8D8)
    public static let dim = PlotColor(hex: 0x80809A)
    public static let waveform = PlotColor(hex: 0x4DD9F2)
    public static let waveformSecond = PlotColor(hex: 0xF29933)
    /// Lane colours for signals (cyan, orange, green, violet, ember, yellow, pink, blue).
    public static let lanes: [PlotColor] = [0x4DD9F2, 0xF29933, 0x66D173, 0xA77BF2, 0xF2603D, 0xF2D43D, 0xF27BC4, 0x5C8CF2].map { PlotColor(hex: $0) }

    /// A dark-to-bright colour map (black, purple, red, orange, pale yellow) for `value` 0…1.
    public static func heat(_ value: Double) -> PlotColor {
        let stops: [(Double, Double, Double)] = [
            (0, 0, 4), (40, 11, 84), (101, 21, 110), (159, 42, 99), (212, 72, 66), (245, 125, 21), (250, 193, 39), (252, 255, 164),
        ]
        let v = min(max(value.isFinite ? value : 0, 0), 1) * Double(stops.count - 1)
        let i = min(Int(v), stops.count - 2)
        let f = v - Double(i)
        func mix(_ a: Double, _ b: Double) -> UInt8 { UInt8((a + (b - a) * f).rounded()) }
        return PlotColor(red: mix(stops[i].0, stops[i + 1].0), green: mix(stops[i].1, stops[i + 1].1), blue: mix(stops[i].2, stops[i + 1].2))
    }
}
