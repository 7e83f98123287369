import Ariel
import Foundation
import HiSynth
import InstrumentSettings
import Studio
import Testing

/// The rack's frames: the spectrum of the filter output moves its −3 dB point with the low-pass cutoff
/// (measured against an open filter, so the oscillator's own spectrum cancels), the filters' response
/// member matches the RBJ formula at the cutoff, and the scope, LFO preview and piano roll members.
@Suite("HiSynth studio frames")
struct HiSynthStudioFrameTests {
    typealias Rig = HiSynthStudioRig

    /// A saw on MIDI 36 (65.4 Hz: harmonics in every bar above about 1 kHz), nothing else sounding.
    static func sawRack() throws -> HiSynthStudioInstrument {
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)   // Init: no LFO, no effects
        for (path, value) in [("osc1.waveform", StudioValue("saw")), ("osc1.level", 0.5), ("osc2.level", 0),
                              ("lp.resonance", -3.0103)] {   // Q = 10^(−3.0103/20) = 1/√2: −3 dB exactly at the cutoff
            _ = try synth.apply(set: "hisynth." + path, value: value)
        }
        _ = try synth.apply(action: "hisynth.note.on", value: 36, client: "t")
        return synth
    }

    /// Averaged spectrum bars (dBFS) over a few frames after `settle` seconds.
    static func spectrum(_ synth: HiSynthStudioInstrument, settle: Double, clock: inout Double) throws -> [Double] {
        Rig.render(synth, seconds: settle)
        var sum = [Double](repeating: 0, count: HiSynthStudioInstrument.spectrumBarCount)
        for _ in 0..<4 {
            Rig.render(synth, seconds: 0.05)
            clock += 1
            let bars = try #require(synth.frameJSON(now: clock)?["spectrum"]?.array).map { $0.number! }
            for i in sum.indices { sum[i] += bars[i] / 4 }
        }
        return sum
    }

    /// Where `difference` (dB, at the bars' centres) first falls below −3 dB above 500 Hz, interpolated in log frequency.
    static func minus3(_ difference: [Double]) -> Double? {
        let f = HiSynthStudioInstrument.spectrumCentres
        for i in 1..<difference.count where f[i - 1] > 500 && difference[i - 1] > -3 && difference[i] <= -3 {
            let t = (-3 - difference[i - 1]) / (difference[i] - difference[i - 1])
            return exp(log(f[i - 1]) + t * (log(f[i]) - log(f[i - 1])))
        }
        return nil
    }

    @Test("the low-pass cutoff moves the spectrum's −3 dB point (2 kHz, then 5 kHz) and the response curve's")
    func cutoffMovesTheMinus3Point() throws {
        let synth = try Self.sawRack()
        var clock = 0.0
        let open = try Self.spectrum(synth, settle: 0.3, clock: &clock)
        for cutoff in [2_000.0, 5_000.0] {
            _ = try synth.apply(set: "hisynth.lp.cutoff", value: .number(cutoff))
            let filtered = try Self.spectrum(synth, settle: 0.2, clock: &clock)
            let point = try #require(Self.minus3(zip(filtered, open).map { $0 - $1 }), "no −3 dB point at \(cutoff)")
            #expect(abs(point / cutoff - 1) < 0.12, "measured −3 dB at \(point) Hz for a cutoff of \(cutoff) Hz")
            // The response member: from the coefficients, −3 dB at the cutoff too (Q = 1/√2).
            Rig.render(synth, seconds: 0.05)
            let response = try #require(synth.frameJSON(now: clock + 1)?["response"]?.array).map { $0.number! }
            clock += 1
            let computed = try #require(Self.minus3(response))
            #expect(abs(computed / cutoff - 1) < 0.02, "response −3 dB at \(computed) Hz for \(cutoff) Hz")
        }
    }

    @Test("frames: scope (1024 samples, every 10th), LFO phases, held notes, and nothing while the engine does not render")
    func frameMembers() throws {
        let synth = try Self.sawRack()
        #expect(synth.frameJSON(now: 0) == nil, "nothing rendered: no frame")
        Rig.render(synth, seconds: 0.25)
        let frame = try #require(synth.frameJSON(now: 1))
        #expect(frame["scope"]?.array?.count == 103)
        #expect(frame["scope"]?.array?.allSatisfy { abs($0.number!) <= 1 } == true)
        #expect(frame["held"] == [36])
        #expect(frame["spectrum"]?.array?.count == 100 && frame["response"]?.array?.count == 100)
        #expect(frame["envelopeLabel"] == "A 0ms D 500ms S 0.0dB R 50ms")
        // LFO phases run from the last note-on (key sync) at each LFO's speed: Init's are 2 Hz.
        let phases = try #require(frame["lfo"]?.object?["phases"]?.array).map { $0.number! }
        let position = Double(synth.host.latestSnapshot().snapshot!.player.engineFrame) / Rig.sampleRate
        let lastOn = Double(synth.host.engine.engine.noteLog.events().last!.frame) / Rig.sampleRate
        let expected = (2 * (position - lastOn)).truncatingRemainder(dividingBy: 1)
        #expect(phases.allSatisfy { abs($0 - expected) < 0.002 }, "\(phases) vs \(expected)")
        #expect(synth.frameJSON(now: 1.01) == nil, "at most 30 frames a second")
        let roll = try #require(frame["roll"]?.array?.first?.array)
        #expect(roll[0] == 36 && roll[3] == true && roll[2] == 0, "a held note reaches now")
    }
}
