import Foundation
import Oberon
import ProsperoTestSupport
import Testing

/// PNG read back by Pillow (an independent decoder), SVG parsed by Python's XML parser.
@Suite struct PictureTests {
    /// A small document with every element kind.
    static func sampleDocument() -> PlotDocument {
        var doc = PlotDocument(width: 97, height: 61, background: PlotColor(hex: 0x102030))
        doc.rectangle(x: 10, y: 5, width: 20, height: 10, color: PlotColor(hex: 0xFF0000))
        doc.line(from: PlotPoint(0, 40), to: PlotPoint(96, 40), color: PlotColor(hex: 0x00FF00))
        doc.text("LUFS -23.0 <&>", x: 2, y: 48, color: PlotColor(hex: 0xFFFFFF))
        var image = RGBAImage(width: 2, height: 2, color: PlotColor(hex: 0x0000FF))
        image.blend(x: 1, y: 1, PlotColor(hex: 0xFFFF00))
        doc.image(image, x: 60, y: 0, width: 20, height: 20)
        doc.rectangle(x: 40, y: 20, width: 10, height: 10, color: PlotColor(red: 255, green: 255, blue: 255, alpha: 128))
        return doc
    }

    @Test func pngReadsBackThroughPillow() throws {
        try TestPeers.require(TestPeers.python(module: "PIL"), "python3 with Pillow (PyPI pillow / Debian python3-pil)")
        let doc = Self.sampleDocument()
        let raster = doc.rasterized()
        let path = OberonTestSupport.temporaryPath(".png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try doc.png()).write(to: URL(fileURLWithPath: path))
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            print(im.format, im.mode, im.size[0], im.size[1])
            print(' '.join('%d,%d,%d,%d' % im.getpixel((x, y)) for y in range(im.size[1]) for x in range(im.size[0])))
            """
        let output = try #require(OberonTestSupport.python(script, [path]))
        let lines = output.split(separator: "\n")
        #expect(lines.first == "PNG RGBA 97 61")
        let pixels = lines[1].split(separator: " ")
        #expect(pixels.count == 97 * 61)
        var mismatches = 0
        for y in 0..<61 {
            for x in 0..<97 {
                let c = raster.color(x: x, y: y)
                if pixels[y * 97 + x] != "\(c.red),\(c.green),\(c.blue),\(c.alpha)" { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        // Spot checks from the drawing itself, not from the raster.
        #expect(pixels[7 * 97 + 15] == "255,0,0,255")   // inside the red rectangle
        #expect(pixels[40 * 97 + 50] == "0,255,0,255")  // on the green line
        #expect(pixels[2 * 97 + 62] == "0,0,255,255")   // top-left quarter of the stretched image
        #expect(pixels[18 * 97 + 78] == "255,255,0,255")  // bottom-right quarter
        #expect(pixels[25 * 97 + 45] == "136,144,152,255")  // white at alpha 128 over #102030
        #expect(pixels[0] == "16,32,48,255")
    }

    @Test func svgIsWellFormedXML() throws {
        try TestPeers.require(TestPeers.executable("python3") != nil, "python3")
        let path = OberonTestSupport.temporaryPath(".svg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Self.sampleDocument().svg().utf8).write(to: URL(fileURLWithPath: path))
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            ns = '{http://www.w3.org/2000/svg}'
            print(root.tag == ns + 'svg', root.get('width'), root.get('height'),
                  len(root.findall(ns + 'rect')), len(root.findall(ns + 'polyline')), len(root.findall(ns + 'image')),
                  root.find(ns + 'text').text)
            """
        let output = try #require(OberonTestSupport.python(script, [path]))
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "True 97 61 3 1 1 LUFS -23.0 <&>")
    }

    /// A whole render picture (every panel kind) draws and encodes in both formats.
    @Test func renderPlotWithEveryPanel() throws {
        let rate = 48_000.0
        let x = (0..<(3 * 48_000)).map { Float(0.3 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
        let analyzer = ProgrammeAnalyzer(sampleRate: rate, channelCount: 2, totalFrames: x.count, pictureColumns: RenderPlot.plotColumns(width: 600))
        analyzer.process([x, x])
        analyzer.finish()
        var plot = RenderPlot.programme(title: "TEST", analyzer: analyzer, width: 600)
        plot.addLanes("Face", lanes: [PlotLane(name: "JAW", points: (0..<300).map { PlotSample(time: Double($0) / 100, value: Double($0 % 100) / 100) })])
        plot.addTimeline("Chords", segments: [PlotSegment(start: 0, end: 1.5, label: "I"), PlotSegment(start: 1.5, end: 3, label: "IV")])
        plot.addPianoRoll(PianoRoll(events: [(0, .noteOn(channel: 0, note: 60, velocity: 100)), (1, .noteOff(channel: 0, note: 60, velocity: 0))]))
        plot.addMarkers("Touches", markers: [PlotMarker(time: 1, duration: 0.2, row: 0.3, label: "tap")])
        let doc = plot.document()
        #expect(doc.width == 600)
        let png = try doc.png()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(doc.svg().hasSuffix("</svg>\n"))
        // The waveform column at the middle reaches ±0.3 of full scale.
        let overview = try #require(analyzer.overview)
        #expect(abs(overview.maximum[0][overview.columns / 2] - 0.3) < 0.01)
        #expect(abs(overview.minimum[1][overview.columns / 2] + 0.3) < 0.01)
    }

    /// The bitmap font draws capitals of 5×7 pixels; unknown characters as a box, never a crash.
    @Test func fontGlyphs() {
        #expect(BitmapFont.rows(of: "A").count == 7)
        #expect(BitmapFont.rows(of: "a") == BitmapFont.rows(of: "A"))
        #expect(BitmapFont.rows(of: "−") == BitmapFont.rows(of: "-"))
        #expect(BitmapFont.rows(of: "🎹").count == 7)
        #expect(BitmapFont.width(of: "ABC", scale: 2) == 36)
    }
}
