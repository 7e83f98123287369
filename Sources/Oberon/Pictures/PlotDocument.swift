import Foundation

/// A picture as a list of drawing elements, rendered to PNG (`rasterized()`, `png()`) or SVG (`svg()`)
/// from the same list, so both formats show the same thing.
public struct PlotDocument: Sendable, Hashable {
    /// Size in pixels (1…16 384 each).
    public let width: Int, height: Int
    /// Fill behind everything.
    public var background: PlotColor
    /// Elements in drawing order.
    public private(set) var elements: [PlotElement] = []

    public init(width: Int, height: Int, background: PlotColor = .background) {
        self.width = min(max(width, 1), 16_384)
        self.height = min(max(height, 1), 16_384)
        self.background = background
    }

    public mutating func rectangle(x: Double, y: Double, width: Double, height: Double, color: PlotColor) {
        elements.append(.rectangle(x: x, y: y, width: width, height: height, color: color))
    }

    public mutating func polyline(_ points: [PlotPoint], color: PlotColor, lineWidth: Double = 1) {
        guard points.count >= 2 else { return }
        elements.append(.polyline(points: points, color: color, lineWidth: lineWidth))
    }

    public mutating func line(from a: PlotPoint, to b: PlotPoint, color: PlotColor, lineWidth: Double = 1) {
        polyline([a, b], color: color, lineWidth: lineWidth)
    }

    public mutating func text(_ string: String, x: Double, y: Double, color: PlotColor = .label, scale: Int = 1, anchor: PlotTextAnchor = .start) {
        elements.append(.text(string, x: x, y: y, color: color, scale: max(1, min(scale, 8)), anchor: anchor))
    }

    public mutating func image(_ image: RGBAImage, x: Double, y: Double, width: Double, height: Double) {
        elements.append(.image(image, x: x, y: y, width: width, height: height))
    }

    /// File formats a document can be written as.
    public enum Format: String, Sendable {
        case png, svg

        /// The format a path's extension names (".png" or ".svg", any case), or nil.
        public init?(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".png") { self = .png } else if lower.hasSuffix(".svg") { self = .svg } else { return nil }
        }
    }

    /// The document's bytes in `format`.
    public func encoded(as format: Format) throws(PNGEncoder.EncodingError) -> [UInt8] {
        switch format {
        case .png: return try png()
        case .svg: return Array(svg().utf8)
        }
    }

    /// PNG bytes of `rasterized()`.
    public func png() throws(PNGEncoder.EncodingError) -> [UInt8] { try rasterized().png() }
}
