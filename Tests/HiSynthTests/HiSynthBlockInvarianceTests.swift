import Ariel
import HiSynth
import ProsperoTestSupport
import Testing
import Touchstone

/// HiSynth renders the same samples whatever blocks its host cuts the stream into (an LV2 host's blocks of
/// 1…8192 frames against `prospero hisynth render`'s 256): the voice path is chosen on the layers' own grid,
/// the control runs carry across blocks. Notes land on the same frames in both. A settings change while
/// playing is not covered: the effects' bypass and reverb-type switches and the mute of a voice freed
/// before its release ended happen at the end of a block, so there the output depends on the blocks.
@Suite struct HiSynthBlockInvarianceTests {
    static let sampleRate = 48_000.0

    /// Overlapping notes (more than eight at once: steals).
    static func events(seed: UInt64, frames: Int) -> [(frame: Int, command: HiSynthEngine.Command)] {
        var random = SeededRandom(seed: seed)
        var out: [(Int, HiSynthEngine.Command)] = []
        for _ in 0..<40 {
            let note = UInt8.random(in: 48...84, using: &random)
            let on = Int.random(in: 0..<(frames * 3 / 4), using: &random)
            let off = on + Int.random(in: 100...(frames / 3), using: &random)
            out.append((on, .noteOn(note)))
            out.append((min(off, frames - 1), .noteOff(note)))
        }
        return out.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    }

    /// Renders `frames` in blocks cycling through `blocks`, each also cut at the events' frames.
    static func render(_ preset: HiSynthPreset, events: [(frame: Int, command: HiSynthEngine.Command)], frames: Int, blocks: [Int]) -> [Float] {
        let engine = HiSynthEngine(preset: preset)
        engine.prepare(ProcessSpec(sampleRate: sampleRate, maximumBlockSize: 8192, channelCount: 2))
        var left = [Float](repeating: 0, count: frames), right = left
        var position = 0, next = 0, k = 0
        let saved = FlushToZero.enable()
        defer { FlushToZero.restore(saved) }
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                while position < frames {
                    let blockEnd = min(frames, position + blocks[k % blocks.count])
                    k += 1
                    while position < blockEnd {
                        while next < events.count && events[next].frame <= position {
                            engine.handle(events[next].command)
                            next += 1
                        }
                        let end = next < events.count ? min(blockEnd, events[next].frame) : blockEnd
                        engine.render(left: UnsafeMutableBufferPointer(rebasing: l[position..<end]),
                                      right: UnsafeMutableBufferPointer(rebasing: r[position..<end]))
                        position = end
                    }
                }
            }
        }
        return left + right
    }

    @Test(arguments: HiSynthPreset.factory.indices)
    func everyFactoryPresetRendersTheSameInAnyBlocks(index: Int) {
        let frames = Int(2.5 * Self.sampleRate)
        let events = Self.events(seed: UInt64(27 + index), frames: frames)
        let preset = HiSynthPreset.factory[index]
        let reference = Self.render(preset, events: events, frames: frames, blocks: [256])
        let cut = Self.render(preset, events: events, frames: frames, blocks: [1, 7, 64, 256, 1000, 8192, 333, 2, 4096, 129])
        #expect(SignalMeasure.peak(reference) > 0.01, "\(preset.name) silent")
        let differences = zip(reference, cut).map { abs($0 - $1) }
        #expect(differences.max() == 0, "\(preset.name): largest difference \(differences.max() ?? 0)")
    }
}
