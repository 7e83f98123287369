import AllocationCounting
import Ariel
import Foundation
import InstrumentSettings
import Studio
import Testing

/// The test tone: its controls validate ranges and types, its sine is at the asked frequency and level
/// (expected from theory: amplitude 10^(dBFS/20), zero crossings 2 × frequency per second), it glides
/// without clicks, stays finite and ≤ 0.5, and renders without allocating.
@Suite("Studio test tone")
struct StudioToneTests {
    static let rate = 48_000.0

    /// Renders `seconds` of the tone in 256-frame blocks; returns the left channel (right must equal it).
    static func render(_ audio: StudioToneAudio, seconds: Double) -> [Float] {
        let n = 256, blocks = Int(seconds * rate) / n
        var out: [Float] = []
        let l = UnsafeMutablePointer<Float>.allocate(capacity: n), r = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer { l.deallocate(); r.deallocate() }
        for _ in 0..<blocks {
            audio.render(frameCount: n, left: l, right: r)
            for i in 0..<n { #expect(l[i] == r[i]); out.append(l[i]) }
        }
        return out
    }

    @Test("controls: ranges and types are checked, each set answers its change, the reference is 1 kHz at −18 dBFS")
    func controls() throws {
        let tone = StudioToneInstrument()
        #expect(tone.stateJSON() == ["on": .bool(false), "frequency": .number(1000), "level": .number(-18), "touching": .bool(false)])
        #expect(try tone.apply(set: "tone.frequency", value: .number(20_000)) == ["frequency": .number(20_000)])
        #expect(try tone.apply(set: "tone.level", value: .number(-60)) == ["level": .number(-60)])
        #expect(try tone.apply(set: "tone.on", value: .bool(true)) == ["on": .bool(true)])
        for (path, value) in [("tone.frequency", StudioValue.number(19.9)), ("tone.frequency", .number(20_001)), ("tone.level", .number(-5)),
                              ("tone.level", .number(-61)), ("tone.on", .string("yes")), ("tone.frequency", .string("1k")), ("tone.volume", .number(1))] {
            #expect(throws: StudioError.self, "\(path) = \(value)") { try tone.apply(set: path, value: value) }
        }
        #expect(tone.frequency == 20_000 && tone.level == -60)   // refused values change nothing
        #expect(throws: StudioError.self) { try tone.apply(action: "tone.sweep", value: .null) }
        #expect(try tone.apply(action: "tone.reference", value: .null) == ["on": .bool(true), "frequency": .number(1000), "level": .number(-18)])
    }

    @Test("the pad: one finger plays (x → 55 Hz × 2^(6x), y → −6 … −60 dBFS); another is ignored; up ends it")
    func pad() throws {
        let tone = StudioToneInstrument()
        #expect(try tone.touch(StudioTouch(id: 0, phase: .down, x: 0.5, y: 0), client: "a") == ["touching": .bool(true)])
        #expect(try tone.touch(StudioTouch(id: 1, phase: .down, x: 0.1, y: 0.9), client: "b").isEmpty)
        #expect(try tone.touch(StudioTouch(id: 0, phase: .move, x: 0.5, y: 0), client: "a").isEmpty)
        // x 0.5 → 55 × 2³ = 440 Hz at −6 dBFS (0.501, under the 0.5 cap: 0.5).
        let samples = Self.render(tone.tone, seconds: 1).suffix(24_000)
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 440) <= 2, "\(crossings) zero crossings in 0.5 s")
        #expect(abs((samples.map { abs($0) }.max() ?? 0) - 0.5) < 0.002)
        #expect(try tone.touch(StudioTouch(id: 1, phase: .up, x: 0, y: 0), client: "b").isEmpty)
        #expect(try tone.touch(StudioTouch(id: 0, phase: .up, x: 0, y: 0), client: "a") == ["touching": .bool(false)])
        let after = Self.render(tone.tone, seconds: 0.5).suffix(4_800)
        #expect((after.map { abs($0) }.max() ?? 1) < 1e-4, "the tone fades out when the finger lifts")
    }

    @Test("the reference renders 1 kHz at −18 dBFS, finite and bounded; switching on glides without a click")
    func reference() throws {
        let tone = StudioToneInstrument()
        _ = try tone.apply(action: "tone.reference", value: .null)
        let samples = Self.render(tone.tone, seconds: 1)
        #expect(samples.allSatisfy { $0.isFinite && abs($0) <= 0.5 })
        let settled = samples.suffix(24_000)
        let peak = Double(settled.map { abs($0) }.max() ?? 0)
        #expect(abs(peak - pow(10, -18.0 / 20)) < 0.001, "peak \(peak)")
        let crossings = zip(settled, settled.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 1000) <= 2)
        // A sine of amplitude A at f moves at most 2πf/rate × A per sample; a step would jump by A.
        let steepest = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(Double(steepest) <= 2 * Double.pi * 1000 / Self.rate * 0.126 + 1e-3)
        _ = try tone.apply(set: "tone.level", value: .number(-6))
        let louder = Self.render(tone.tone, seconds: 0.3)
        let step = zip(louder, louder.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(Double(step) <= 2 * Double.pi * 1000 / Self.rate * 0.5 + 1e-3, "level change clicked: step \(step)")
        tone.silence(at: 0)
        #expect(tone.stateJSON()["on"] == .bool(false))
    }
}

@Suite("Studio audio allocations", .enabled(if: !AllocationCounter.isDisabledBySanitizer, "malloc interposition is compiled out under sanitizers"))
struct StudioAudioAllocationTests {
    @Test("the test tone renders with 0 allocations, with commands waiting in its ring")
    func tone() throws {
        try #require(AllocationCounter.isAvailable)
        let audio = StudioToneAudio()
        audio.prepare(sampleRate: 48_000, maximumFrames: 512)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: 512), r = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { l.deallocate(); r.deallocate() }
        audio.render(frameCount: 512, left: l, right: r)
        for k in 0..<20 { audio.send(frequency: 100 + Double(k) * 50, amplitude: 0.25) }
        let count = AllocationCounter.allocations {
            for _ in 0..<50 { audio.render(frameCount: 512, left: l, right: r) }
        }
        #expect(count == 0)
        #expect((0..<512).allSatisfy { l[$0].isFinite && abs(l[$0]) <= 0.5 })
    }

    @Test("the hands synth and its MIDI drain render with 0 allocations while fingers play, timed and untimed")
    func hands() throws {
        try #require(AllocationCounter.isAvailable)
        let queue = HandsMIDIQueue()
        var settings = HandsStudioSettings()
        settings.output = .both
        let hands = try HandsStudioController(settings: settings, midiOut: queue)
        let audio = HandsStudioAudio(host: hands.synth, midi: queue)
        audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        let l = UnsafeMutablePointer<Float>.allocate(capacity: 256), r = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { l.deallocate(); r.deallocate() }
        var messages = 0
        var start: UInt32 = 1_024
        /// One passage: four fingers down (and a timed message for midi_out), `blocks` periods rendered and
        /// drained timed and untimed, the fingers up, a few periods more. Returns the audio side's allocations.
        func passage(at time: Double, blocks: Int) -> Int {
            for (slot, y) in [0.1, 0.3, 0.5, 0.9].enumerated() {
                hands.touch(client: "a", id: slot, phase: .down, x: 0.2 * Double(slot), y: y, pressure: 0.8, at: time)
            }
            queue.send(MIDIShortMessage(status: 0x90, data1: 64, data2: 90)!, dueAt: start &+ 300)
            var count = 0
            for k in 0..<blocks {
                if k == blocks - 8 {
                    for slot in 0..<4 { hands.touch(client: "a", id: slot, phase: .up, x: 0, y: 0, pressure: 0, at: time + 0.5) }
                }
                count += AllocationCounter.allocations {
                    l.update(repeating: 0, count: 256)
                    r.update(repeating: 0, count: 256)
                    audio.render(frameCount: 256, left: l, right: r, midi: UnsafeBufferPointer(start: nil, count: 0), blockStart: start)
                    audio.drainMIDI(blockStart: start, frameCount: 256) { _, _, _, _ in messages += 1 }
                    audio.render(frameCount: 256, left: l, right: r)
                    audio.drainMIDI { _, _, _ in messages += 1 }
                }
                start &+= 256
            }
            return count
        }
        // Warm-up: one whole passage (the synth's first notes initialise what they need once), then count another.
        _ = passage(at: 1, blocks: 40)
        messages = 0
        var sounded = false
        for (slot, y) in [0.2, 0.4].enumerated() {
            hands.touch(client: "b", id: slot, phase: .down, x: 0.5, y: y, pressure: 0.6, at: 1.9)
        }
        audio.render(frameCount: 256, left: l, right: r)
        sounded = (0..<256).contains { l[$0] != 0 }
        for slot in 0..<2 { hands.touch(client: "b", id: slot, phase: .up, x: 0, y: 0, pressure: 0, at: 1.95) }
        let count = passage(at: 2, blocks: 100)
        #expect(count == 0)
        #expect(messages >= 9, "the passage's note-ons and note-offs reach midi_out")
        #expect((0..<256).allSatisfy { l[$0].isFinite && abs(l[$0]) <= 1 })
        #expect(sounded, "the fingers sound")
    }
}
