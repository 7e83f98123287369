/// A raster image, 8-bit RGBA, rows top to bottom.
public struct RGBAImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// A `width` × `height` image filled with `color` (sizes clamped to 1…16 384).
    public init(width: Int, height: Int, color: PlotColor = PlotColor(red: 0, green: 0, blue: 0, alpha: 0)) {
        self.width = min(max(width, 1), 16_384)
        self.height = min(max(height, 1), 16_384)
        var pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = color.red; pixels[i + 1] = color.green; pixels[i + 2] = color.blue; pixels[i + 3] = color.alpha
        }
        self.pixels = pixels
    }

    /// Blends `color` over pixel (x, y) by its alpha; outside the image does nothing.
    @inline(__always)
    public mutating func blend(x: Int, y: Int, _ color: PlotColor) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4
        if color.alpha == 255 {
            pixels[i] = color.red; pixels[i + 1] = color.green; pixels[i + 2] = color.blue; pixels[i + 3] = 255
            return
        }
        let a = UInt32(color.alpha), inverse = 255 - a
        func mix(_ old: UInt8, _ new: UInt8) -> UInt8 { UInt8((UInt32(new) * a + UInt32(old) * inverse + 127) / 255) }
        pixels[i] = mix(pixels[i], color.red)
        pixels[i + 1] = mix(pixels[i + 1], color.green)
        pixels[i + 2] = mix(pixels[i + 2], color.blue)
        pixels[i + 3] = UInt8(min(255, a + UInt32(pixels[i + 3]) * inverse / 255))
    }

    /// The colour at (x, y).
    public func color(x: Int, y: Int) -> PlotColor {
        let i = (y * width + x) * 4
        return PlotColor(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }

    /// PNG bytes (`PNGEncoder`).
    public func png() throws(PNGEncoder.EncodingError) -> [UInt8] {
        try PNGEncoder.encode(width: width, height: height, rgba: pixels)
    }
}
