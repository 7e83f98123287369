import Foundation

extension PlotDocument {
    /// The document as a standalone SVG 1.1 file. Text uses a monospace font at the bitmap font's size;
    /// raster images are embedded as PNG data.
    public func svg() -> String {
        func n(_ value: Double) -> String {
            let rounded = (value * 100).rounded() / 100
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        func fill(_ color: PlotColor) -> String {
            color.alpha == 255 ? "fill=\"\(color.svgHex)\"" : "fill=\"\(color.svgHex)\" fill-opacity=\"\(n(Double(color.alpha) / 255))\""
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
        out += "width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" \(fill(background))/>\n"
        for element in elements {
            switch element {
            case .rectangle(let x, let y, let w, let h, let color):
                out += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, w)))\" height=\"\(n(max(0, h)))\" \(fill(color))/>\n"
            case .polyline(let points, let color, let lineWidth):
                let list = points.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                let opacity = color.alpha == 255 ? "" : " stroke-opacity=\"\(n(Double(color.alpha) / 255))\""
                out += "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(color.svgHex)\"\(opacity) stroke-width=\"\(n(lineWidth))\"/>\n"
            case .text(let string, let x, let y, let color, let scale, let anchor):
                let size = Double(BitmapFont.glyphHeight * scale) * 1.35
                out += "<text x=\"\(n(x))\" y=\"\(n(y + Double(BitmapFont.glyphHeight * scale)))\" font-family=\"monospace\" "
                out += "font-size=\"\(n(size))\" text-anchor=\"\(anchor.rawValue)\" \(fill(color))>\(Self.escaped(string))</text>\n"
            case .image(let image, let x, let y, let w, let h):
                let data = (try? image.png()).map { Data($0).base64EncodedString() } ?? ""
                out += "<image x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" preserveAspectRatio=\"none\" "
                out += "style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64,\(data)\"/>\n"
            }
        }
        out += "</svg>\n"
        return out
    }

    /// Text with XML's special characters escaped and control characters dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
