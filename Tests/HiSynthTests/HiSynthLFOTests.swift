import Foundation
import HiSynth
import Testing
import Touchstone

/// Each LFO's rate and depth on each of the four targets, measured from rendered audio against the
/// spec's offset formulas; key sync; the table shapes.
@Suite struct HiSynthLFOTests {
    enum Target: String, CaseIterable, CustomTestStringConvertible {
        case pitch, amplitude, filterLow, filterHigh
        var testDescription: String { rawValue }
    }

    static let speeds = [1.5, 2.75, 4.0]
    static let depths: [Float] = [0.5, 0.8, 0.3]

    static func settings(lfo index: Int, target: Target, base: Float = 1_000) -> HiSynthSettings {
        var s = HiSynthRig.plain(level: 0.4)
        s[lfo: index] = .init(waveform: .sine, depth: depths[index], speed: speeds[index], phase: 0,
                              pitch: target == .pitch, amplitude: target == .amplitude,
                              filterLow: target == .filterLow, filterHigh: target == .filterHigh)
        if target == .filterLow { s.lowPass = .init(cutoff: base, resonance: -3.0103) }
        if target == .filterHigh { s.highPass = .init(cutoff: base, resonance: -3.0103) }
        return s
    }

    @Test(arguments: 0..<3, Target.allCases)
    func rateAndDepth(_ index: Int, _ target: Target) throws {
        let speed = Self.speeds[index]
        let depth = Double(Self.depths[index])
        let note: UInt8 = target == .pitch ? 81 : 84          // A5 880 Hz, C6 1046.5 Hz
        let carrier = HiSynthRig.hz(Double(note))
        let out = HiSynthRig.render(Self.settings(lfo: index, target: target), seconds: 3.2, [(0, .noteOn(note))])
        let range = 4_410..<out.left.count
        let series: [(Double, Double)]
        let high: Double, low: Double, measuredHigh: Double, measuredLow: Double
        switch target {
        case .pitch:
            // ΔHz = 440·(10^(0.1·v) − 1), added to the voice's frequency.
            series = HiSynthRig.frequencyTrack(out.left, range)
            high = carrier + 440 * (pow(10, 0.1 * depth) - 1)
            low = carrier + 440 * (pow(10, -0.1 * depth) - 1)
            measuredHigh = series.map(\.1).max()!
            measuredLow = series.map(\.1).min()!
            #expect(abs(measuredHigh - high) < 0.5, "\(measuredHigh) vs \(high) Hz")
            #expect(abs(measuredLow - low) < 0.5, "\(measuredLow) vs \(low) Hz")
        case .amplitude:
            // Filter-out gain clamp(0.5 + 0.5·v, 0, 1) on the voice (0.4).
            series = HiSynthRig.envelope(out.left, window: 128, from: range.lowerBound)
            high = 0.4 * (0.5 + 0.5 * depth)
            low = 0.4 * (0.5 - 0.5 * depth)
            measuredHigh = series.map(\.1).max()!
            measuredLow = series.map(\.1).min()!
            #expect(abs(measuredHigh - high) < 0.003 && abs(measuredLow - low) < 0.003, "\(measuredLow)…\(measuredHigh) vs \(low)…\(high)")
        case .filterLow, .filterHigh:
            // cutoff = B·10^v: the probe's level follows the RBJ response at the extreme cutoffs.
            let isHigh = target == .filterHigh
            series = HiSynthRig.envelope(out.left, window: 128, from: range.lowerBound)
            let gainAt = { (v: Double) in HiSynthFilterTests.rbj(highPass: isHigh, f: carrier, f0: 1_000 * pow(10, v), q: 1 / 2.0.squareRoot()) }
            high = 0.2 * max(gainAt(depth), gainAt(-depth))
            low = 0.2 * min(gainAt(depth), gainAt(-depth))
            measuredHigh = series.map(\.1).max()!
            measuredLow = series.map(\.1).min()!
            #expect(abs(20 * log10(measuredHigh / high)) < 0.3, "\(measuredHigh) vs \(high)")
            #expect(abs(20 * log10(measuredLow / low)) < 1, "\(measuredLow) vs \(low)")
        }
        let rate = HiSynthRig.modulationRate(series)
        #expect(abs(rate / speed - 1) < 0.01, "LFO \(index + 1) → \(target): \(rate) Hz vs \(speed) Hz")
    }

    @Test func offsetsOfSeveralLFOsOnOneTargetAreSummed() {
        // Two square LFOs at full depth on pitch: +1 + +1 → 2·113.9 Hz above, −1 + −1 → 2·90.5 Hz below.
        var s = HiSynthRig.plain(level: 0.4)
        s.lfo1 = .init(waveform: .square, depth: 1, speed: 0.5, pitch: true)
        s.lfo2 = .init(waveform: .square, depth: 1, speed: 0.5, pitch: true)
        let out = HiSynthRig.render(s, seconds: 2.1, [(0, .noteOn(81))])
        // Square tables are −1 for the first half cycle (1 s), +1 after.
        let first = HiSynthRig.frequency(out.left, 4_410..<39_690)
        let second = HiSynthRig.frequency(out.left, 48_510..<83_790)
        #expect(abs(first - (880 + 2 * 440 * (pow(10, -0.1) - 1))) < 0.3)
        #expect(abs(second - (880 + 2 * 440 * (pow(10, 0.1) - 1))) < 0.3)
    }

    @Test func everyNoteOnResetsThePhases() {
        // A square LFO at 1 Hz on amplitude, depth 1: gain 0 for the half cycle after each note-on, 1 after.
        var s = HiSynthRig.plain(level: 0.4)
        s.lfo1 = .init(waveform: .square, depth: 1, speed: 1, amplitude: true)
        let out = HiSynthRig.render(s, seconds: 2.5, [(0, .noteOn(81)), (0.73, .noteOn(88))])
        let fs = HiSynthRig.sampleRate
        func level(_ from: Double, _ to: Double) -> Float { HiSynthRig.peak(out.left, Int(from * fs)..<Int(to * fs)) }
        #expect(level(0.02, 0.48) < 1e-4)           // first note, first half cycle
        #expect(level(0.52, 0.72) > 0.35)           // second half cycle
        #expect(level(0.76, 1.2) < 1e-4)            // the second note restarted the LFO at phase 0
        #expect(level(1.26, 1.7) > 0.35)
    }

    @Test func phaseOffsetShiftsTheTableRead() {
        // Phase 0.5 on a square: +1 first (the table read half a cycle on).
        var s = HiSynthRig.plain(level: 0.4)
        s.lfo1 = .init(waveform: .square, depth: 1, speed: 1, phase: 0.5, amplitude: true)
        let out = HiSynthRig.render(s, seconds: 1.2, [(0, .noteOn(81))])
        let fs = HiSynthRig.sampleRate
        #expect(HiSynthRig.peak(out.left, Int(0.02 * fs)..<Int(0.48 * fs)) > 0.35)
        #expect(HiSynthRig.peak(out.left, Int(0.52 * fs)..<Int(0.98 * fs)) < 1e-4)
    }

    @Test func tablesHaveTheOriginalShapes() {
        #expect(HiSynthLFO.table(.square, at: 0.1) == -1 && HiSynthLFO.table(.square, at: 0.6) == 1)
        #expect(HiSynthLFO.table(.saw, at: 0) == -1 && HiSynthLFO.table(.rsaw, at: 0) == 1)
        #expect(HiSynthLFO.table(.triangle, at: 0) == -1 && HiSynthLFO.table(.triangle, at: 0.5) == 1)
        #expect(HiSynthLFO.table(.pulse, at: 0.2) == 1 && HiSynthLFO.table(.pulse, at: 0.3) == -1)
        #expect(abs(HiSynthLFO.table(.sine, at: 0.25) - 1) < 1e-6)
        // No interpolation: idx = ⌊phase·4096⌋.
        #expect(HiSynthLFO.table(.saw, at: 0.5 / 4096) == -1)
    }

    @Test func depthZeroStopsTheLFO() {
        var s = HiSynthRig.plain(level: 0.4)
        s.lfo1 = .init(waveform: .square, depth: 0, speed: 5, pitch: true, amplitude: true)
        let out = HiSynthRig.render(s, seconds: 1, [(0, .noteOn(81))])
        let env = HiSynthRig.envelope(out.left, window: 128, from: 4_410).map(\.1)
        #expect(env.max()! - env.min()! < 0.002)
        #expect(abs(HiSynthRig.frequency(out.left, 4_410..<44_100) - 880) < 0.05)
    }
}
