import Ariel
import Foundation
import HiSynth
import ProsperoLV2
import ProsperoTestSupport
import Testing
import Touchstone

/// The plugins in real hosts: lv2_validate, lv2ls/lv2info and the lilv test host (Fixtures/lv2host.c),
/// against the bundles scripts/lv2-install made, with nothing of the Swift toolchain on the library path.
@Suite(.serialized, .ownThread) struct LV2HostTests {
    static let uris = LV2Catalog.plugins.map { $0.info.uri }
    /// Block sizes the host cycles through: 1 to 8192 frames, sizes that split the engines' control runs.
    static let blocks = [1, 7, 64, 256, 1000, 8192, 333, 2, 4096, 129]

    @Test func everyBundleValidates() throws {
        let bundles = try LV2Peers.requireBundles()
        for plugin in LV2Catalog.plugins {
            let dir = bundles + "/" + plugin.info.bundleName
            let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".ttl") }.sorted()
            #expect(files.contains("manifest.ttl"))
            let result = try LV2Peers.run("lv2_validate", files.map { dir + "/" + $0 }, bundles: bundles)
            #expect(result.status == 0, "lv2_validate \(plugin.info.bundleName): \(result.output)")
            #expect(!result.output.contains("error:"), "\(result.output)")
        }
    }

    @Test func lv2lsAndLv2infoListEveryPluginWithItsPorts() throws {
        let bundles = try LV2Peers.requireBundles()
        let listed = try LV2Peers.run("lv2ls", [], bundles: bundles)
        #expect(listed.status == 0)
        #expect(Set(listed.output.split(separator: "\n").map(String.init)) == Set(Self.uris))
        for plugin in LV2Catalog.plugins {
            let info = try LV2Peers.run("lv2info", [plugin.info.uri], bundles: bundles)
            #expect(info.status == 0, "\(info.output)")
            // lv2info's lines with their runs of spaces as one: "Symbol: midi_in".
            let lines = Set(info.output.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
            for (index, port) in plugin.info.ports.enumerated() {
                #expect(lines.contains("Port \(index):"), "\(plugin.info.uri) port \(index)")
                #expect(lines.contains("Symbol: \(port.symbol)"), "\(plugin.info.uri) lacks \(port.symbol)")
            }
            for preset in plugin.info.presets { #expect(info.output.contains(preset.name), "preset \(preset.name) not listed") }
        }
    }

    @Test func sharedObjectNeedsNoToolchain() throws {
        let bundles = try LV2Peers.requireBundles()
        let swift = try #require(TestPeers.executable("swift") ?? "/opt/swift/usr/bin/swift" as String?)
        let toolchain = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().path
        for plugin in LV2Catalog.plugins {
            let object = bundles + "/" + plugin.info.bundleName + "/" + LV2Catalog.binary
            let dynamic = try TestPeers.runBlocking("readelf", ["-d", object])
            #expect(dynamic.output.contains("Library runpath: [$ORIGIN]"), "\(dynamic.output)")
            #expect(!dynamic.output.contains(toolchain), "run path into the toolchain: \(dynamic.output)")
            let ldd = try LV2Peers.run("ldd", [object], bundles: bundles)
            #expect(ldd.status == 0)
            #expect(!ldd.output.contains(toolchain), "\(ldd.output)")
            #expect(!ldd.output.contains("not found"), "\(ldd.output)")
        }
    }

    /// HiSynth through lilv, in blocks of 1…8192 frames, equals `prospero hisynth render --live-stage` of the same
    /// song and preset sample for sample (exactly: the engine carries its 16-sample control runs across blocks and
    /// chooses its voice path on its own 64-sample grid, so no block boundary changes a rounding). The plugin plays
    /// through the live output stage and reports its delay, 48 frames at 48 kHz (1 ms with true peak), on `latency`.
    @Test(arguments: ["HiSynth Key", "Dream Pad", "Subway Lead"])
    func hiSynthEqualsItsOfflineRender(preset name: String) throws {
        let prospero = try LV2Peers.prospero()
        _ = try LV2Peers.requireBundles()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-hisynth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let songs = try TestPeers.runBlocking(prospero, ["hisynth", "songs", "--write", dir.path])
        #expect(songs.status == 0)
        let song = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".mid") }.sorted().first)
        let wav = dir.appendingPathComponent("render.wav").path
        let rate = 48_000.0
        let rendered = try TestPeers.runBlocking(prospero, [
            "hisynth", "render", dir.appendingPathComponent(song).path, "--preset", name, "--sample-rate", "48000",
            "--format", "float32", "--tail", "1", "--live-stage", "-o", wav,
        ], timeout: 300)
        #expect(rendered.status == 0, "\(rendered.output)")
        let reference = try LV2Peers.readWAV(wav)
        let file = try MIDIFile(decoding: Array(try Data(contentsOf: dir.appendingPathComponent(song))))
        let events = LV2Peers.events(of: file, sampleRate: rate, chasesControllers: false)
        let presetURI = try #require(HiSynthLV2.info.presets.first { $0.name == name }).uri
        let out = try LV2Peers.render([HiSynthLV2.uri], events: events, frames: reference.left.count, rate: rate,
                                      blocks: Self.blocks, preset: presetURI, save: true)[0]
        #expect(out.allocations == 0)
        let engine = HiSynthEngine()
        engine.prepare(.live(sampleRate: rate, maximumBlockSize: 256))
        #expect(out.latency == engine.latencySamples && out.latency == 48, "the live stage's 48 frames: \(String(describing: out.latency))")
        #expect(out.state == HiSynthPreset.factoryStrings[HiSynthPreset.factory.firstIndex { $0.name == name }!])
        let difference = zip(out.left + out.right, reference.left + reference.right).map { abs($0 - $1) }.max() ?? 0
        #expect(SignalMeasure.peak(reference.left) > 0.01)
        #expect(difference == 0, "largest difference \(difference)")
    }

    /// The poly synth through lilv, in blocks of 1…8192 frames, equals `prospero render --live-stage` of the same song with
    /// the same settings sample for sample (its voices, glides and effects carry their state across blocks; the
    /// ports' `Float` values, 0.3 as 0.30000001, reach the engine as the same `Float`s the render's 0.3 does).
    @Test func polySynthEqualsItsOfflineRender() throws {
        let prospero = try LV2Peers.prospero()
        _ = try LV2Peers.requireBundles()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-poly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try TestPeers.runBlocking(prospero, ["hisynth", "songs", "--write", dir.path])
        let song = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".mid") }.sorted().last)
        let wav = dir.appendingPathComponent("render.wav").path
        let rendered = try TestPeers.runBlocking(prospero, [
            "render", dir.appendingPathComponent(song).path, "--format", "float32", "--tail", "1", "--reverb-mix", "0.3",
            "--delay-time", "0.25", "--live-stage", "-o", wav,
        ], timeout: 300)
        #expect(rendered.status == 0, "\(rendered.output)")
        let reference = try LV2Peers.readWAV(wav)
        let file = try MIDIFile(decoding: Array(try Data(contentsOf: dir.appendingPathComponent(song))))
        let events = LV2Peers.events(of: file, sampleRate: 48_000, chasesControllers: true)
        let out = try LV2Peers.render([PolySynthLV2.uri], events: events, frames: reference.left.count, blocks: Self.blocks,
                                      set: ["reverb_on": 1, "reverb_mix": 0.3, "delay_on": 1, "delay_time": 0.25])[0]
        #expect(out.allocations == 0)
        #expect(out.latency == 48, "the live stage's 48 frames: \(String(describing: out.latency))")
        let difference = zip(out.left + out.right, reference.left + reference.right).map { abs($0 - $1) }.max() ?? 0
        #expect(SignalMeasure.peak(reference.left) > 0.01)
        #expect(difference == 0, "largest difference \(difference)")
    }

    /// Every factory string restored through the State extension saves back byte for byte; a moved port
    /// saves a new string holding the new value.
    @Test func hiSynthStateRoundTripsThePresetString() throws {
        for string in HiSynthPreset.factoryStrings {
            let out = try LV2Peers.render([HiSynthLV2.uri], frames: 64, restore: string, save: true)[0]
            #expect(out.state == string)
        }
        let moved = try LV2Peers.render([HiSynthLV2.uri], frames: 64, preset: HiSynthLV2.info.presets[7].uri,
                                        set: ["osc1_level": 0.5], save: true)[0]
        let decoded = try HiSynthPreset(string: try #require(moved.state))
        #expect(decoded.oscillators[0].level == 0.5)
        #expect(decoded.name == HiSynthLV2.info.presets[7].name)
    }

    /// All three plugins side by side in one process, HiSynth twice, at the lowest and highest rates:
    /// the twins sound identical, nothing allocates in run(), every output is finite and below full scale.
    @Test(arguments: [22_050.0, 192_000.0])
    func severalInstancesAtAnyRate(rate: Double) throws {
        let notes: [(frame: Int64, bytes: [UInt8])] = [(0, [0x90, 60, 100]), (100, [0x90, 64, 90]), (2_000, [0x90, 67, 80]),
                                                       (Int64(rate / 2), [0x80, 60, 0]), (Int64(rate / 2) + 1, [0x80, 64, 0])]
        let uris = [HiSynthLV2.uri, HiSynthLV2.uri, PolySynthLV2.uri, HecateLV2.uri]
        let out = try LV2Peers.render(uris, events: notes, frames: Int(rate), rate: rate, blocks: Self.blocks)
        #expect(out[0].left == out[1].left && out[0].right == out[1].right)
        for (k, o) in out.enumerated() {
            #expect(o.allocations == 0, "\(uris[k])")
            #expect(o.latency == Self.liveStageLatency(rate: rate), "\(uris[k]) reports \(String(describing: o.latency)), not the live stage's delay")
            let peak = SignalMeasure.peak(o.left + o.right)
            #expect(peak.isFinite && peak < 1, "\(uris[k]) peak \(peak)")
            #expect(peak > 0.01, "\(uris[k]) silent")
        }
    }

    /// The live output stage's delay at `rate` (every engine's limiter prepared live: the look-ahead and the
    /// true-peak detector within 1 ms, at least one frame of look-ahead below 27 kHz).
    static func liveStageLatency(rate: Double) -> Int {
        let engine = HiSynthEngine()
        engine.prepare(.live(sampleRate: rate, maximumBlockSize: 256))
        return engine.latencySamples
    }

    /// The live stage holds the ceiling in the plugins: a loud cluster (eight notes at velocity 127) through the poly
    /// synth with 12 dB of gain before a −6 dBFS ceiling, and through HiSynth (−1 dBFS), at 48 and 96 kHz, never
    /// goes above the ceiling in any sample, and the poly synth is limited (it reaches within 1 dB of the ceiling).
    /// The true peak between samples is the limiter's own test's (`BrickwallLimiterTruePeakTests`, live stage).
    @Test(arguments: [48_000.0, 96_000.0])
    func liveStageHoldsTheCeilingInThePlugins(rate: Double) throws {
        let cluster = [48, 52, 55, 59, 60, 64, 67, 71].map { (frame: Int64(0), bytes: [UInt8(0x90), UInt8($0), UInt8(127)]) }
        let poly = try LV2Peers.render([PolySynthLV2.uri], events: cluster, frames: Int(rate), rate: rate, blocks: Self.blocks,
                                       set: ["gain": 12, "ceiling": -6])[0]
        let polyPeak = SignalMeasure.peak(poly.left + poly.right)
        let polyCeiling = Float(pow(10, -6.0 / 20))
        #expect(polyPeak <= polyCeiling, "poly synth peak \(polyPeak) over the −6 dBFS ceiling \(polyCeiling)")
        #expect(polyPeak > Float(pow(10, -7.0 / 20)), "the loud cluster should reach the limiter: peak \(polyPeak)")
        #expect(poly.latency == Self.liveStageLatency(rate: rate))
        let hi = try LV2Peers.render([HiSynthLV2.uri], events: cluster, frames: Int(rate), rate: rate, blocks: Self.blocks)[0]
        let hiPeak = SignalMeasure.peak(hi.left + hi.right)
        #expect(hiPeak > 0.01 && hiPeak <= Float(pow(10, Double(HiSynthEngine.ceilingDecibels) / 20)), "HiSynth peak \(hiPeak)")
    }
}
