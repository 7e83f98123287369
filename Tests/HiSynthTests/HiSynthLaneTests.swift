import Foundation
import HiSynth
import Testing
import Touchstone

/// The layer's lane path (several voices sounding, their oscillators side by side in SIMD lanes) against its
/// voice-by-voice path (one voice sounding), through the superposition the engine keeps when it is linear:
/// with the filters wide open, no effect, no LFO (they restart at every note-on, so a chord's notes would
/// modulate each other) and the limiter below its ceiling, a chord's output is the sum of its notes played alone.
@Suite struct HiSynthLaneTests {
    /// Saw and square an octave apart, a slow attack and decay to 0.6, a release; notes start and stop at
    /// different times, within blocks.
    static var settings: HiSynthSettings {
        var s = HiSynthRig.plain(level: 0.12, waveform: .saw)
        s.layer2 = .init(waveform: .square, level: 0.1, pitch: 12)
        s.envelope = .init(attack: 0.03, decay: 0.2, sustain: 0.6, release: 0.3)
        return s
    }

    static let notes: [(note: UInt8, on: Double, off: Double)] = [
        (48, 0.0, 0.61), (55, 0.013, 0.9), (60, 0.1002, 0.7), (64, 0.25, 1.1), (67, 0.3, 0.45), (71, 0.52, 0.95),
    ]

    static func render(_ notes: [(note: UInt8, on: Double, off: Double)]) -> [Float] {
        var commands: [(Double, HiSynthEngine.Command)] = []
        for n in notes { commands += [(n.on, .noteOn(n.note)), (n.off, .noteOff(n.note))] }
        return HiSynthRig.render(settings, seconds: 1.6, commands).left
    }

    /// Through note-ons, overlapping envelopes and releases, the chord equals the sum of its
    /// notes alone within 2e-5 of full scale (Float rounding of different summation orders and of the lanes).
    @Test func aChordEqualsItsNotesPlayedAlone() {
        let chord = Self.render(Self.notes)
        var sum = [Float](repeating: 0, count: chord.count)
        for note in Self.notes {
            let alone = Self.render([note])
            for i in sum.indices { sum[i] += alone[i] }
        }
        var worst: Float = 0
        for i in chord.indices { worst = max(worst, abs(chord[i] - sum[i])) }
        let peak = chord.map(abs).max()!
        print("HiSynth lanes: chord peak \(peak), largest difference to the sum of notes alone \(worst)")
        #expect(peak > 0.2 && peak < 0.75, "the chord sounds, well below the limiter's ceiling (true peak included)")
        #expect(worst < 2e-5)
    }
}
