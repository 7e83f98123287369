extension PlotDocument {
    /// Draws every element into an RGBA raster of the document's size.
    public func rasterized() -> RGBAImage {
        var canvas = RGBAImage(width: width, height: height, color: background)
        for element in elements {
            switch element {
            case .rectangle(let x, let y, let w, let h, let color):
                let x0 = max(0, Int(x.rounded(.down))), y0 = max(0, Int(y.rounded(.down)))
                let x1 = min(width, Int((x + w).rounded(.up))), y1 = min(height, Int((y + h).rounded(.up)))
                guard x0 < x1, y0 < y1 else { continue }
                for py in y0..<y1 { for px in x0..<x1 { canvas.blend(x: px, y: py, color) } }
            case .polyline(let points, let color, let lineWidth):
                for k in 1..<points.count { Self.drawLine(&canvas, points[k - 1], points[k], color, lineWidth) }
            case .text(let string, let x, let y, let color, let scale, let anchor):
                let textWidth = Double(BitmapFont.width(of: string, scale: scale))
                var left = x
                if anchor == .middle { left -= textWidth / 2 } else if anchor == .end { left -= textWidth }
                var cursor = Int(left.rounded())
                let top = Int(y.rounded())
                for character in string {
                    let rows = BitmapFont.rows(of: character)
                    for (r, bits) in rows.enumerated() {
                        for c in 0..<BitmapFont.glyphWidth where bits & (1 << (4 - c)) != 0 {
                            for dy in 0..<scale { for dx in 0..<scale { canvas.blend(x: cursor + c * scale + dx, y: top + r * scale + dy, color) } }
                        }
                    }
                    cursor += BitmapFont.cellWidth * scale
                }
            case .image(let image, let x, let y, let w, let h):
                let x0 = max(0, Int(x.rounded())), y0 = max(0, Int(y.rounded()))
                let x1 = min(width, Int((x + w).rounded())), y1 = min(height, Int((y + h).rounded()))
                guard x0 < x1, y0 < y1, w > 0, h > 0 else { continue }
                for py in y0..<y1 {
                    let sy = min(image.height - 1, Int((Double(py) + 0.5 - y) / h * Double(image.height)))
                    for px in x0..<x1 {
                        let sx = min(image.width - 1, Int((Double(px) + 0.5 - x) / w * Double(image.width)))
                        canvas.blend(x: px, y: py, image.color(x: max(0, sx), y: max(0, sy)))
                    }
                }
            }
        }
        return canvas
    }

    /// A line as a run of square dots `lineWidth` wide, one per pixel step along its longer axis.
    static func drawLine(_ canvas: inout RGBAImage, _ a: PlotPoint, _ b: PlotPoint, _ color: PlotColor, _ lineWidth: Double) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        let steps = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)))
        guard steps < 100_000 else { return }
        let size = max(1, Int(lineWidth.rounded()))
        let offset = (size - 1) / 2
        var lastX = Int.min, lastY = Int.min
        for s in 0...steps {
            let t = Double(s) / Double(steps)
            let px = Int((a.x + (b.x - a.x) * t).rounded(.down)), py = Int((a.y + (b.y - a.y) * t).rounded(.down))
            if px == lastX && py == lastY { continue }
            lastX = px; lastY = py
            for dy in 0..<size { for dx in 0..<size { canvas.blend(x: px - offset + dx, y: py - offset + dy, color) } }
        }
    }
}
