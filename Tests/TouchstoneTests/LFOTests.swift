import Foundation
import Testing
import Touchstone

@Suite struct LFOTests {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    @Test func noteDivisionsHaveTheirMusicalLengths() {
        #expect(NoteDivision.quarter.beats == 1)
        #expect(NoteDivision.whole.beats == 4)
        #expect(NoteDivision.thirtySecond.beats == 0.125)
        #expect(NoteDivision.eighth.dotted.beats == 0.75)
        #expect(abs(NoteDivision.quarter.triplet.beats - 2.0 / 3) < 1e-12)
        #expect(NoteDivision.quarter.frequency(bpm: 120) == 2)
        #expect(abs(NoteDivision.sixteenth.triplet.seconds(bpm: 90) - 60.0 / 90 / 4 * 2 / 3) < 1e-12)
        #expect(NoteDivision(denominator: 3) == nil)
        #expect(NoteDivision(denominator: 64) == nil)
        #expect(NoteDivision(denominator: 16, modifier: .dotted)?.description == "1/16.")
        #expect(NoteDivision.allDivisions.count == 18)
        #expect(LFORate.synced(.half, bpm: 0).hertz == 0)
    }

    @Test func noteDivisionDecodingRejectsUnknownDenominators() throws {
        let good = try JSONDecoder().decode(NoteDivision.self, from: Data(#"{"denominator":8,"modifier":"triplet"}"#.utf8))
        #expect(good == .eighth.triplet)
        let roundTrip = try JSONDecoder().decode(NoteDivision.self, from: JSONEncoder().encode(NoteDivision.sixteenth.dotted))
        #expect(roundTrip == .sixteenth.dotted)
        do {
            _ = try JSONDecoder().decode(NoteDivision.self, from: Data(#"{"denominator":3}"#.utf8))
            Issue.record("denominator 3 decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("denominator 3"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// Counts rising zero crossings of a bipolar LFO over `seconds`.
    static func cycles(_ lfo: inout LFO, seconds: Double) -> Int {
        let samples = Render.generate(&lfo, count: Int(seconds * 48_000))
        return zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
    }

    @Test(arguments: [NoteDivision.quarter, .eighth.dotted, .sixteenth.triplet, .whole, .thirtySecond])
    func syncedRateFollowsTempoAndDivision(_ division: NoteDivision) {
        for bpm in [60.0, 97.0, 174.0] {
            var lfo = LFO(waveform: .sine, rate: .synced(division, bpm: bpm))
            lfo.prepare(Self.spec)
            let expected = bpm / 60 / division.beats
            #expect(abs(lfo.frequency - expected) < 1e-9)
            // Over 20 s, the count of periods matches the tempo to within one.
            let counted = Self.cycles(&lfo, seconds: 20)
            #expect(abs(Double(counted) - expected * 20) <= 1 + 1e-9, "\(division) at \(bpm): \(counted)")
        }
    }

    /// `advance(count:)` (used where the depth is 0) leaves the phase exactly where as many
    /// `nextSample()` calls leave it, through many wraps, so the waveform resumes on the same samples.
    @Test func advanceByCountEqualsThatManySamples() {
        var stepped = LFO(waveform: .sine, rate: .hertz(5.5))
        var advanced = stepped
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)
        stepped.prepare(spec)
        advanced.prepare(spec)
        for count in [1, 7, 256, 255, 4_000, 0, 256] {
            for _ in 0..<count { _ = stepped.nextSample() }
            advanced.advance(count: count)
            #expect(advanced.phase == stepped.phase, "after \(count)")
            #expect(advanced.nextSample() == stepped.nextSample())
        }
    }

    @Test func everyShapeIsBipolarAndFollowsThePhaseConvention() {
        let quarterPhase: [Waveform: Float] = [.sine: 1, .triangle: 1, .saw: -0.5, .reverseSaw: 0.5, .square: 1, .pulse: -1]
        for waveform in Waveform.allCases {
            var lfo = LFO(waveform: waveform, rate: .hertz(1))
            lfo.pulseWidth = 0.2
            lfo.prepare(Self.spec)
            let period = Render.generate(&lfo, count: 48_000)
            #expect(period.allSatisfy { $0 >= -1 && $0 <= 1 }, "\(waveform)")
            #expect(abs(period[12_000] - quarterPhase[waveform]!) < 1e-3, "\(waveform): \(period[12_000])")
            #expect(abs(period.max()! - 1) < 1e-3 && abs(period.min()! + 1) < 1e-3, "\(waveform)")
        }
        #expect(LFO.unipolar(-1) == 0 && LFO.unipolar(1) == 1)
    }

    @Test func phaseOffsetShiftsTheShapeAndIsReadable() {
        var a = LFO(waveform: .triangle, rate: .hertz(2))
        var b = LFO(waveform: .triangle, rate: .hertz(2), phaseOffset: 0.25)
        a.prepare(Self.spec)
        b.prepare(Self.spec)
        #expect(b.outputPhase == 0.25 && b.phase == 0)
        let x = Render.generate(&a, count: 48_000)
        let y = Render.generate(&b, count: 48_000)
        // b leads a by a quarter period = 6000 samples at 2 Hz.
        for i in stride(from: 0, to: 42_000, by: 997) {
            #expect(abs(y[i] - x[i + 6_000]) < 1e-4)
        }
        b.setPhaseOffset(1.75)                   // wrapped to 0.75
        #expect(abs(b.phaseOffset - 0.75) < 1e-12)
        #expect(b.outputPhase >= 0 && b.outputPhase < 1)
        b.reset()
        #expect(b.phase == 0)
        #expect(abs(b.nextSample() - (-1)) < 1e-6)   // triangle at phase 0.75
    }

    @Test func rateChangesKeepThePhaseContinuousAndSyncLocksToBeats() {
        var lfo = LFO(waveform: .saw, rate: .hertz(1))
        lfo.prepare(Self.spec)
        _ = Render.generate(&lfo, count: 10_000)
        let phase = lfo.phase
        lfo.setRate(.hertz(7))
        #expect(lfo.phase == phase)
        lfo.setRate(.synced(.eighth, bpm: 120))
        lfo.sync(toBeatPosition: 10.25)          // 20.5 periods of an eighth note
        #expect(abs(lfo.phase - 0.5) < 1e-12)
        lfo.skip(12_000)                         // a quarter second = one period at 4 Hz
        #expect(abs(lfo.phase - 0.5) < 1e-9)
    }
}
