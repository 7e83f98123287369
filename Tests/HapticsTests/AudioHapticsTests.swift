import Ariel
import Foundation
import Haptics
import ProsperoTestSupport
import Testing
import Touchstone

/// Audio → haptics on signals made here with known onsets.
@Suite struct AudioHapticsTests {
    static let sr = 48_000.0

    /// Decaying tones (220…1760 Hz, 150 ms decay) at the given onset times, over a quiet noise floor.
    static func bursts(at onsets: [Double], length: Double, seed: UInt64 = 1) -> [Float] {
        var random = SeededRandom(seed: seed)
        var x = (0..<Int(length * sr)).map { _ in Float(random.double(-0.002...0.002)) }
        for (k, t0) in onsets.enumerated() {
            let f = 220 * pow(2, Double(k % 4))
            let start = Int(t0 * sr)
            for i in start..<min(x.count, start + Int(0.6 * sr)) {
                let t = Double(i - start) / sr
                x[i] += Float(0.4 * exp(-t / 0.15) * sin(2 * .pi * f * t))
            }
        }
        return x
    }

    static func track(_ x: [Float], blockSize: Int = 256) -> AudioHapticTracker {
        let tracker = AudioHapticTracker(sampleRate: sr)
        var k = 0
        while k < x.count {
            let n = min(blockSize, x.count - k)
            tracker.process(mono: Array(x[k..<(k + n)]), frame: Int64(k))
            k += n
        }
        return tracker
    }

    /// Greedy one-to-one matching within `tolerance`: (hits, largest error).
    static func match(_ found: [Double], _ truth: [Double], tolerance: Double) -> (hits: Int, worst: Double) {
        var used = Set<Int>(), hits = 0, worst = 0.0
        for t in truth {
            if let j = found.indices.filter({ !used.contains($0) && abs(found[$0] - t) <= tolerance }).min(by: { abs(found[$0] - t) < abs(found[$1] - t) }) {
                used.insert(j); hits += 1; worst = max(worst, abs(found[j] - t))
            }
        }
        return (hits, worst)
    }

    @Test func onsetsAreFoundWithin20ms() {
        var random = SeededRandom(seed: 42)
        var onsets: [Double] = []
        var t = 0.3
        while t < 9.5 { onsets.append(t); t += random.double(0.12...0.45) }
        let tracker = Self.track(Self.bursts(at: onsets, length: 10))
        let found = tracker.onsets.map(\.time)
        let (hits, worst) = Self.match(found, onsets, tolerance: 0.02)
        let precision = Double(hits) / Double(max(1, found.count)), recall = Double(hits) / Double(onsets.count)
        let f = 2 * precision * recall / max(1e-12, precision + recall)
        #expect(f >= 0.9, "F \(f): \(hits) of \(onsets.count) found, \(found.count) reported")
        #expect(worst <= 0.02)
        print("onsets: F \(String(format: "%.3f", f)), \(hits) of \(onsets.count) within 20 ms, worst \(String(format: "%.1f", worst * 1000)) ms")
        // At least 50 ms apart.
        #expect(zip(found, found.dropFirst()).allSatisfy { $1 - $0 >= 0.05 - 1e-9 })
        let events = tracker.drainTransients()
        #expect(events.count == found.count && events.allSatisfy { $0.type == .hapticTransient })
        #expect(tracker.drainTransients().isEmpty, "drained once")
    }

    @Test func steadyTonesGiveNoTransients() {
        for freqs in [[440.0], [110.0, 330.0, 550.0], [2_000.0]] {
            let x = (0..<Int(3 * Self.sr)).map { i in Float(freqs.reduce(0) { $0 + 0.2 * sin(2 * .pi * $1 * Double(i) / Self.sr) }) }
            let tracker = Self.track(x)
            #expect(tracker.onsets.isEmpty, "\(freqs): \(tracker.onsets.map(\.time))")
        }
    }

    @Test func sharpnessFollowsTheSpectralCentroid() {
        func sharpness(_ f: Double) -> Double {
            let x = (0..<Int(Self.sr)).map { Float(0.3 * sin(2 * .pi * f * Double($0) / Self.sr)) }
            let frames = Self.track(x).frames.dropFirst(5)
            return frames.map(\.sharpness).reduce(0, +) / Double(frames.count)
        }
        // S = log(c / 100) / log(80); a sine's centroid is its frequency.
        #expect(abs(sharpness(200) - log(2) / log(80)) < 0.05)
        #expect(abs(sharpness(4_000) - log(40) / log(80)) < 0.05)
    }

    @Test func loudnessBecomesTheContinuousLayer() {
        // A 300 Hz tone rising linearly from 0 to 0.5 over 2 s: intensity √(a/peak) = √(t/2).
        let n = Int(2 * Self.sr)
        let x = (0..<n).map { i in Float(0.5 * Double(i) / Double(n) * sin(2 * .pi * 300 * Double(i) / Self.sr)) }
        let result = AudioHaptics(Self.track(x))
        let p = result.continuous
        #expect(!p.events.isEmpty && p.events.allSatisfy { $0.type == .hapticContinuous && $0.intensity == 1 })
        #expect(p.curves.allSatisfy { $0.points.count <= 16 })
        for t in stride(from: 0.4, through: 1.8, by: 0.2) {
            #expect(abs(p.control(.hapticIntensityControl, at: t) - (t / 2).squareRoot()) < 0.05, "t \(t)")
        }
        // Breakpoints: at most 16 per second of each control (the pieces share their joints).
        let intensityPoints = p.curves.filter { $0.id == .hapticIntensityControl }.reduce(0) { $0 + $1.points.count }
        #expect(intensityPoints <= 2 * 16 + 4)
        #expect(result.transients.events.isEmpty)
        #expect(result.merged.events.count == p.events.count)
    }

    @Test func liveTimestampsAreOnTheAudioClock() {
        // A poly synth plays notes from a sequencer; the tracker hears each rendered block with its frame
        // position. Each note's sound leaves the synth's 5 ms look-ahead limiter 5 ms after its note-on.
        let synth = PolySynth(capacity: 8)
        let spec = ProcessSpec(sampleRate: Self.sr, maximumBlockSize: 256, channelCount: 2)
        synth.prepare(spec)
        let noteTimes = [0.25, 0.61, 0.9, 1.37, 1.6, 2.05, 2.5, 2.71, 3.2, 3.55]
        var events: [(seconds: Double, message: MIDIMessage)] = []
        for (k, t) in noteTimes.enumerated() {
            let note = MIDIUInt7(clamping: 48 + 5 * k)
            events.append((t, .noteOn(channel: 0, note: note, velocity: 110)))
            events.append((t + 0.15, .noteOff(channel: 0, note: note, velocity: 0)))
        }
        let sequencer = MIDISequencer(events: events, sampleRate: Self.sr)
        let tracker = AudioHapticTracker(sampleRate: Self.sr, keepsHistory: false)
        var l = [Float](repeating: 0, count: 256), r = l
        var live: [HapticEvent] = []
        var frame: Int64 = 0
        while frame < Int64(4 * Self.sr) {
            l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in
                    var start = 0
                    for e in sequencer.nextBlock(frameCount: 256) {
                        if e.frameOffset > start {
                            synth.render(left: UnsafeMutableBufferPointer(rebasing: lp[start..<e.frameOffset]), right: UnsafeMutableBufferPointer(rebasing: rp[start..<e.frameOffset]))
                            start = e.frameOffset
                        }
                        if let m = e.message { synth.handle(midi: m) }
                    }
                    synth.render(left: UnsafeMutableBufferPointer(rebasing: lp[start...]), right: UnsafeMutableBufferPointer(rebasing: rp[start...]))
                    tracker.process(left: UnsafeBufferPointer(lp), right: UnsafeBufferPointer(rp), frame: frame)
                }
            }
            live += tracker.drainTransients()
            frame += 256
        }
        #expect(tracker.frames.count == 1 && tracker.onsets.isEmpty, "a live tracker keeps only what is not drained")
        let soundTimes = noteTimes.map { $0 + 0.005 }
        let (hits, worst) = Self.match(live.map(\.time), soundTimes, tolerance: 0.02)
        #expect(hits == noteTimes.count && live.count == noteTimes.count, "\(live.map { ($0.time, $0.intensity) })")
        #expect(worst <= 0.02, "worst error \(worst * 1000) ms")
        print("live audio→haptic timestamp error: worst \(String(format: "%.1f", worst * 1000)) ms over \(hits) notes")
    }
}
