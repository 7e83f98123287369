import Ariel
import Foundation
import HiSynth
import HiSynthLibrary
import Studio

/// Helpers for the rack's tests: an instrument with a throw-away preset library, rendering through its
/// audio engine as the JACK driver does, and the factory vectors.
enum HiSynthStudioRig {
    static let sampleRate = 48_000.0
    static let block = 256

    static func temporaryLibrary() -> HiSynthPresetLibrary {
        HiSynthPresetLibrary(directory: FileManager.default.temporaryDirectory.appendingPathComponent("hisynth-rack-\(UUID().uuidString)"))
    }

    static func instrument(preset: HiSynthPreset = HiSynthPreset.factory[0]) -> HiSynthStudioInstrument {
        let synth = HiSynthStudioInstrument(preset: preset, library: temporaryLibrary())
        synth.audio.prepare(sampleRate: sampleRate, maximumFrames: block)
        return synth
    }

    /// Renders `blocks` blocks; `midi` goes into the first one (as JACK's midi_in would).
    @discardableResult
    static func render(_ synth: HiSynthStudioInstrument, blocks: Int, midi: [TimedMIDIMessage] = []) -> [Float] {
        var l = [Float](repeating: 0, count: block), r = l
        var out: [Float] = []
        out.reserveCapacity(blocks * block)
        for b in 0..<blocks {
            l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in
                    if b == 0 && !midi.isEmpty {
                        midi.withUnsafeBufferPointer { m in
                            synth.audio.render(frameCount: block, left: lp.baseAddress!, right: rp.baseAddress!, midi: m, blockStart: nil)
                        }
                    } else {
                        synth.audio.render(frameCount: block, left: lp.baseAddress!, right: rp.baseAddress!)
                    }
                }
            }
            out += l
        }
        return out
    }

    /// Renders about `seconds`.
    @discardableResult
    static func render(_ synth: HiSynthStudioInstrument, seconds: Double) -> [Float] {
        render(synth, blocks: Int((seconds * sampleRate / Double(block)).rounded(.up)))
    }

    /// The settings the engine runs now (read between blocks, as a test may).
    static func engineSettings(_ synth: HiSynthStudioInstrument) -> HiSynthSettings { synth.host.engine.engine.settings }

    /// The factory vectors: each preset string with its decoded values (JSON written by the spec's author).
    static func factoryVectors() throws -> [(string: String, decoded: [String: Any])] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HiSynthTests/Fixtures/hisynth-factory.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return (object["string"] as! String, object["decoded"] as! [String: Any])
        }
    }
}
