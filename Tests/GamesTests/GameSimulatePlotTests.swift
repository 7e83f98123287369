import Ariel
import Foundation
import Haptics
import ProsperoTestSupport
import Testing

/// `prospero game simulate --plot`: the session's picture with its touches and haptic events, as SVG
/// (parsed by Python's XML parser) and PNG (decoded by Pillow, an independent decoder).
@Suite(.ownThread) struct GameSimulatePlotTests {
    typealias CLI = ProsperoHapticsCommandTests

    @Test func thePictureShowsEveryTouchAndHapticEventAtItsTime() throws {
        try TestPeers.require(TestPeers.python(module: "PIL"), "python3 with Pillow (PyPI pillow / Debian python3-pil)")
        let wav = CLI.temporary("plot.wav"), ahap = CLI.temporary("plot.ahap"), svg = CLI.temporary("plot.svg"), png = CLI.temporary("plot.png")
        defer { for f in [wav, ahap, svg, png] { try? FileManager.default.removeItem(atPath: f) } }
        let s = try CLI.run(["game", "simulate", "harmony", "--script", "examples/games/harmony.jsonl", "-o", wav, "--haptics", ahap, "--plot", svg])
        #expect(s.status == 0, "\(s.error)")
        #expect(s.output.contains("loudness: integrated") && s.output.contains("wrote \(svg)"))
        let p = try CLI.run(["game", "simulate", "harmony", "--script", "examples/games/harmony.jsonl", "-o", wav, "--plot", png])
        #expect(p.status == 0, "\(p.error)")

        // The script's touches: each starts at a "touch" line after its slot was free (here each lasts to its "ended").
        let script = try String(contentsOfFile: CLI.repository.appendingPathComponent("examples/games/harmony.jsonl").path, encoding: .utf8)
        let touchStarts = script.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("\"touch\":{") else { return nil }
            return Double(line.split(separator: ",").first!.dropFirst(5))
        }
        let events = try HapticPattern(ahap: Array(try Data(contentsOf: URL(fileURLWithPath: ahap)))).events
        let duration = Double(try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: wav)))).channels[0].count) / 48_000

        // Markers are 4 px high bars at least 3 px wide: one per touch and per haptic event. The data area
        // starts at x = 124 and is 1060 px wide (1200 − 124 label column − 16 margin); a bar starts 1 px before its time.
        let script2 = """
            import sys, json, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            bars = [(float(r.get('x')), float(r.get('y'))) for r in root.iter('{http://www.w3.org/2000/svg}rect')
                    if r.get('height') == '4' and float(r.get('width')) >= 3 and r.get('fill') == '#f29933']
            labels = [t.text for t in root.iter('{http://www.w3.org/2000/svg}text')]
            print(json.dumps({"bars": bars, "labels": labels}))
            """
        let found = try TestPeers.runBlocking(try #require(TestPeers.executable("python3")), ["-c", script2, svg])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any], "\(found.output)")
        let bars = try #require(parsed["bars"] as? [[Double]])
        let labels = try #require(parsed["labels"] as? [String])
        #expect(labels.contains("TOUCHES") && labels.contains("HAPTICS"))
        #expect(bars.count == touchStarts.count + events.count, "\(bars.count) bars, \(touchStarts.count) touches, \(events.count) events")
        let expectedX = (touchStarts + events.map(\.time)).map { 124 + 1060 * $0 / duration - 1 }.sorted()
        for (x, e) in zip(bars.map { $0[0] }.sorted(), expectedX) { #expect(abs(x - e) < 0.02, "bar at \(x), expected \(e)") }

        // The PNG shows the same picture: Pillow reads it, and the first touch bar's middle is the marker colour.
        let first = try #require(bars.min { $0[0] < $1[0] })
        let pixel = try TestPeers.runBlocking(try #require(TestPeers.executable("python3")), ["-c", """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            print(im.format, im.size[0], im.size[1], '%d,%d,%d' % im.convert('RGB').getpixel((int(sys.argv[2]), int(sys.argv[3]))))
            """, png, "\(Int(first[0] + 2))", "\(Int(first[1] + 2))"])
        let fields = pixel.output.split(separator: " ").map(String.init)
        #expect(fields.count == 4 && fields[0] == "PNG" && fields[1] == "1200", "\(pixel.output)")
        #expect(fields.last?.trimmingCharacters(in: .whitespacesAndNewlines) == "242,153,51", "\(pixel.output)")
    }
}
