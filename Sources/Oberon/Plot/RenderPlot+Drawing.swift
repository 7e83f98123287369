import Foundation

extension RenderPlot {
    /// The picture: title, caption, each panel with its label, and the time axis at the bottom.
    public func document() -> PlotDocument {
        let left = Self.labelWidth
        let plotWidth = Double(width) - left - Self.rightMargin
        let top = 56.0, gap = 10.0, axis = 30.0
        let height = top + panels.reduce(0) { $0 + $1.height + gap } + axis
        var doc = PlotDocument(width: width, height: Int(height.rounded(.up)))
        doc.text(title, x: 12, y: 10, color: .label, scale: 2)
        doc.text(caption, x: 12, y: 34, color: .dim)
        func x(_ time: Double) -> Double { left + plotWidth * min(max(time / duration, 0), 1) }

        var y = top
        for panel in panels {
            let h = panel.height
            doc.rectangle(x: left, y: y, width: plotWidth, height: h, color: .panel)
            switch panel {
            case .waveform(let minimum, let maximum):
                drawWaveform(&doc, minimum: minimum, maximum: maximum, x: left, y: y, width: plotWidth, height: h)
            case .spectrogram(let decibels, let lowest, let highest):
                drawSpectrogram(&doc, decibels, lowest: lowest, highest: highest, x: left, y: y, width: plotWidth, height: h)
            case .lanes(let name, let lanes):
                doc.text(name.uppercased(), x: 12, y: y + 2, color: .dim)
                for (k, lane) in lanes.enumerated() {
                    let laneTop = y + 6 + Double(k) * 26, laneHeight = 20.0
                    let color = PlotColor.lanes[k % PlotColor.lanes.count]
                    doc.text(lane.name, x: left - 6, y: laneTop + 7, color: color, anchor: .end)
                    doc.line(from: PlotPoint(left, laneTop + laneHeight), to: PlotPoint(left + plotWidth, laneTop + laneHeight), color: .grid)
                    let points = thinned(lane.points, pixels: plotWidth).map {
                        PlotPoint(x($0.time), laneTop + laneHeight * (1 - min(max($0.value.isFinite ? $0.value : 0, 0), 1)))
                    }
                    doc.polyline(points, color: color, lineWidth: 1.5)
                }
            case .timeline(let name, let segments):
                doc.text(name.uppercased(), x: left - 6, y: y + 13, color: .dim, anchor: .end)
                for (k, segment) in segments.enumerated() {
                    let x0 = x(segment.start), x1 = x(min(segment.end, duration))
                    guard x1 > x0 else { continue }
                    let color = PlotColor.lanes[k % PlotColor.lanes.count]
                    doc.rectangle(x: x0 + 1, y: y + 4, width: x1 - x0 - 2, height: h - 8, color: PlotColor(red: color.red, green: color.green, blue: color.blue, alpha: 90))
                    if BitmapFont.width(of: segment.label, scale: 1) < Int(x1 - x0) - 4 {
                        doc.text(segment.label, x: x0 + 5, y: y + 13, color: .label)
                    }
                }
            case .pianoRoll(let roll):
                drawPianoRoll(&doc, roll, x: left, y: y, width: plotWidth, height: h)
            case .markers(let name, let markers):
                doc.text(name.uppercased(), x: left - 6, y: y + 4, color: .dim, anchor: .end)
                for marker in markers.prefix(20_000) {
                    let mx = x(marker.time)
                    let my = y + 6 + (h - 12) * (1 - min(max(marker.row.isFinite ? marker.row : 0.5, 0), 1))
                    let w = max(3, x(marker.time + max(0, marker.duration)) - mx)
                    doc.rectangle(x: mx - 1, y: my - 2, width: w, height: 4, color: .waveformSecond)
                }
            }
            y += h + gap
        }

        // Time axis and light grid lines through the panels.
        let step = Self.niceStep(duration / 10)
        var t = 0.0
        while t <= duration + step * 1e-6 {
            let tx = x(t)
            doc.line(from: PlotPoint(tx, top), to: PlotPoint(tx, y - gap), color: PlotColor(red: 255, green: 255, blue: 255, alpha: 28))
            doc.line(from: PlotPoint(tx, y - gap), to: PlotPoint(tx, y - gap + 5), color: .dim)
            doc.text(Self.timeLabel(t, step: step), x: tx, y: y - gap + 9, color: .dim, anchor: .middle)
            t += step
        }
        return doc
    }

    /// At most about two points per pixel (keeps the largest and smallest of each bucket's values).
    func thinned(_ points: [PlotSample], pixels: Double) -> [PlotSample] {
        let buckets = Int(pixels * 2)
        guard points.count > buckets * 2, buckets > 0 else { return points }
        var out: [PlotSample] = []
        var current = -1
        var low: PlotSample?, high: PlotSample?
        for p in points {
            let b = min(buckets - 1, max(0, Int(p.time / duration * Double(buckets))))
            if b != current {
                if let low, let high { out += low.time <= high.time ? [low, high] : [high, low] }
                current = b; low = p; high = p
            } else {
                if p.value < low!.value { low = p }
                if p.value > high!.value { high = p }
            }
        }
        if let low, let high { out += low.time <= high.time ? [low, high] : [high, low] }
        return out
    }

    func drawWaveform(_ doc: inout PlotDocument, minimum: [[Float]], maximum: [[Float]], x: Double, y: Double, width: Double, height: Double) {
        let channels = minimum.count
        let band = height / Double(max(1, channels))
        for c in 0..<channels {
            let mid = y + band * (Double(c) + 0.5), half = band / 2 - 3
            let color = c == 0 ? PlotColor.waveform : PlotColor.waveformSecond
            doc.text(channels == 1 ? "WAVEFORM" : (c == 0 ? "LEFT" : c == 1 ? "RIGHT" : "CH \(c + 1)"), x: 12, y: mid - 4, color: color)
            doc.text("+1", x: x - 6, y: mid - half, color: .dim, anchor: .end)
            doc.text("-1", x: x - 6, y: mid + half - 7, color: .dim, anchor: .end)
            doc.line(from: PlotPoint(x, mid), to: PlotPoint(x + width, mid), color: .grid)
            let columns = minimum[c].count
            let columnWidth = width / Double(max(1, columns))
            for k in 0..<columns {
                let high = Double(min(max(maximum[c][k], -1), 1)), low = Double(min(max(minimum[c][k], -1), 1))
                guard high > low else { continue }
                doc.rectangle(x: x + Double(k) * columnWidth, y: mid - high * half, width: max(1, columnWidth), height: max(1, (high - low) * half), color: color)
            }
        }
    }

    func drawSpectrogram(_ doc: inout PlotDocument, _ decibels: [[Float]], lowest: Double, highest: Double, x: Double, y: Double, width: Double, height: Double) {
        guard let rows = decibels.first?.count, rows > 0 else { return }
        var image = RGBAImage(width: decibels.count, height: rows)
        for (c, column) in decibels.enumerated() {
            for (r, level) in column.enumerated() {
                image.blend(x: c, y: rows - 1 - r, PlotColor.heat((Double(level) + 110) / 110))  // −110…0 dBFS
            }
        }
        doc.image(image, x: x, y: y, width: width, height: height)
        doc.text("SPECTRUM", x: 12, y: y + height / 2 - 4, color: .label)
        doc.text("-110..0 DB", x: 12, y: y + height / 2 + 8, color: .dim)
        for frequency in [100.0, 1_000, 10_000] where frequency > lowest && frequency < highest {
            let fy = y + height * (1 - log(frequency / lowest) / log(highest / lowest))
            doc.line(from: PlotPoint(x - 4, fy), to: PlotPoint(x, fy), color: .dim)
            doc.text(frequency >= 1_000 ? "\(Int(frequency / 1_000))K" : "\(Int(frequency))", x: x - 6, y: fy - 3, color: .dim, anchor: .end)
        }
    }

    func drawPianoRoll(_ doc: inout PlotDocument, _ roll: PianoRoll, x: Double, y: Double, width: Double, height: Double) {
        doc.text("NOTES", x: 12, y: y + 4, color: .label)
        guard let range = roll.keyRange else {
            doc.text("no notes", x: x + 8, y: y + height / 2 - 4, color: .dim)
            return
        }
        let low = range.lowerBound - 1, high = range.upperBound + 1
        let keyHeight = (height - 4) / Double(high - low + 1)
        func keyY(_ key: Int) -> Double { y + 2 + Double(high - key) * keyHeight }
        for key in low...high where key % 12 == 0 {
            doc.line(from: PlotPoint(x, keyY(key) + keyHeight), to: PlotPoint(x + width, keyY(key) + keyHeight), color: .grid)
            doc.text("C\(key / 12 - 1)", x: x - 6, y: keyY(key) + keyHeight / 2 - 3, color: .dim, anchor: .end)
        }
        for note in roll.notes {
            let x0 = x + width * min(max(note.start / duration, 0), 1)
            let x1 = x + width * min(max(note.end / duration, 0), 1)
            let base = PlotColor.lanes[note.channel % PlotColor.lanes.count]
            let alpha = UInt8(110 + note.velocity * 145 / 127)
            doc.rectangle(x: x0, y: keyY(note.key), width: max(1.5, x1 - x0), height: max(1, keyHeight - 0.5),
                          color: PlotColor(red: base.red, green: base.green, blue: base.blue, alpha: alpha))
        }
    }

    /// 1, 2 or 5 × 10^k, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * power >= rough { return m * power }
        return 10 * power
    }

    static func timeLabel(_ t: Double, step: Double) -> String {
        if step >= 60, t.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(t / 60))M" }
        if step >= 1 { return "\(Int(t.rounded()))S" }
        return String(format: step >= 0.1 ? "%.1fS" : "%.2fS", t)
    }
}
