import Foundation
import Touchstone

/// One voice of one HiSynth layer: a band-limited oscillator, its envelope state, and what the layer's
/// allocator needs to know (note, age, when it becomes free).
///
/// The oscillators are Touchstone's `BandLimitedOscillator` (4-point PolyBLEP / PolyBLAMP, exact sine),
/// started at the phase that gives the original's table orientation: the square starts low (phase ½),
/// the triangle starts at −1 (phase ¾), saw, reverse saw and pulse start at their jump. The original
/// reads 4096-point naive tables without interpolation, so its saw, square, pulse and triangle alias
/// (a naive saw at 2637 Hz / 48 kHz has its aliases 11.7 dB below its harmonics, dsp-references.md §1;
/// Touchstone's oscillator 39 dB) and its table steps add a faint hiss; ours are band-limited, so high
/// notes sound cleaner and the top octave slightly softer (−2.5 dB at 10 kHz), and the pulse has its DC
/// offset removed (the high-pass after it removes most of the original's anyway).
struct HiSynthVoice {
    /// What the allocator sees.
    enum State: UInt8 {
        /// Free for a new note (its envelope may still be ramping its last 1 ms away).
        case free
        /// Key down.
        case held
        /// Key up; busy until release + 0.2 s after the note-off.
        case released
        /// Hard-muted by a re-strike of its note; free once the mute ramp has ended.
        case leaving
    }

    var oscillator = BandLimitedOscillator(waveform: .saw, frequency: 440, pulseWidth: 0.25)
    var envelope = HiSynthEnvelope.State()
    var waveform: Waveform = .sine
    var state: State = .free
    var note: UInt8 = 0
    /// Note-on order, for oldest-note stealing.
    var stamp: UInt64 = 0
    /// Frequency before pitch modulation, Hz.
    var baseHz: Float = 440
    /// Samples until a released voice is free.
    var freeCountdown = 0
    /// A stolen voice starts its new note once the mute ramp has ended.
    var hasPending = false
    var pendingHz: Float = 440
    var pendingWaveform: Waveform = .sine
    /// The pending note was released before it could start.
    var pendingReleased = false

    /// The start phase giving the original table's orientation for `waveform`.
    static func startPhase(_ waveform: Waveform) -> Float {
        switch waveform {
        case .square: 0.5
        case .triangle: 0.75
        default: 0
        }
    }

    /// Starts a note now from silence.
    mutating func begin(hz: Float, waveform: Waveform, _ p: HiSynthEnvelope.Parameters) {
        self.waveform = waveform
        baseHz = hz
        oscillator.resetPhase(to: Self.startPhase(waveform))
        oscillator.setFrequency(hz)
        envelope.gateOn(p)
        hasPending = false
        if pendingReleased {
            pendingReleased = false
            envelope.gateOff(p)
        }
    }

    /// Renders up to `count` samples added into `out`; `pitch` (when given) adds Hz per sample.
    /// Returns early (the rest untouched) when the voice falls silent.
    @inline(__always)
    mutating func render(
        into out: UnsafeMutablePointer<Float>, pitch: UnsafePointer<Float>?, count: Int,
        _ p: HiSynthEnvelope.Parameters
    ) {
        var voice = self           // local copy: stores through `out` could alias `self`
        var i = 0
        while i < count {
            if !voice.envelope.isActive {
                guard voice.hasPending else { break }
                voice.begin(hz: voice.pendingHz, waveform: voice.pendingWaveform, p)
            }
            switch voice.waveform {
            case .sine: voice.run(SineShape.self, out, pitch, &i, count, p)
            case .square: voice.run(SquareShape.self, out, pitch, &i, count, p)
            case .saw: voice.run(SawShape.self, out, pitch, &i, count, p)
            case .triangle: voice.run(TriangleShape.self, out, pitch, &i, count, p)
            case .pulse: voice.run(PulseShape.self, out, pitch, &i, count, p)
            case .reverseSaw: voice.run(ReverseSawShape.self, out, pitch, &i, count, p)
            }
        }
        self = voice
    }

    @inline(__always)
    mutating func run<Shape: OscillatorShape>(
        _ shape: Shape.Type, _ out: UnsafeMutablePointer<Float>, _ pitch: UnsafePointer<Float>?,
        _ i: inout Int, _ end: Int, _ p: HiSynthEnvelope.Parameters
    ) {
        var osc = oscillator
        var env = envelope
        var k = i
        while k < end && env.isActive {
            // Straight stretches of the envelope (most of a note) run with one add per sample for the gain.
            if let (count, step) = env.linearRun(p) {
                let stop = count >= end - k ? end : k + count
                var g = env.level
                if let pitch {
                    let base = baseHz
                    while k < stop {
                        osc.setFrequency(min(max(base + pitch[k], HiSynthVoice.minimumHz), HiSynthVoice.maximumHz))
                        g += step
                        out[k] += Shape.next(&osc) * g
                        k += 1
                    }
                } else {
                    while k < stop {
                        g += step
                        out[k] += Shape.next(&osc) * g
                        k += 1
                    }
                }
                env.setLinearLevel(g)
            } else {
                if let pitch {
                    osc.setFrequency(min(max(baseHz + pitch[k], HiSynthVoice.minimumHz), HiSynthVoice.maximumHz))
                }
                out[k] += Shape.next(&osc) * env.next(p)
                k += 1
            }
        }
        i = k
        oscillator = osc
        envelope = env
    }

    /// The original's frequency clamp, Hz (the oscillator further limits itself to 0.45·fs).
    static let minimumHz: Float = 10
    static let maximumHz: Float = 22_000

    /// f = 440·2^((n − 69)/12) for n = the note plus the layer's pitch, truncated to an integer as the
    /// original's Int8 conversion does, clamped to 10…22 000 Hz.
    static func frequency(note: UInt8, pitch: Float) -> Float {
        let shifted = (Double(note) + Double(pitch)).rounded(.towardZero)
        let n = min(max(shifted, -128), 127)
        let hz = 440 * exp2((n - 69) / 12)
        return Float(min(max(hz, Double(minimumHz)), Double(maximumHz)))
    }
}
