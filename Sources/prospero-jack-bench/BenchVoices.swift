import Foundation
import ProsperoJACK

/// The benchmark's workload: a 16-voice sine organ played by MIDI input (jack_midiseq), with
/// each received note echoed to MIDI out at its frame. Representative of a live session's
/// callback (MIDI parse, per-sample voices, MIDI out), not a product instrument.
final class BenchVoices: JACKProcessHandler, @unchecked Sendable {
    private static let voiceCount = 16
    private var sampleRate = 48_000.0
    private let phase = UnsafeMutablePointer<Float>.allocate(capacity: voiceCount)
    private let step = UnsafeMutablePointer<Float>.allocate(capacity: voiceCount)
    private let gain = UnsafeMutablePointer<Float>.allocate(capacity: voiceCount)
    private let target = UnsafeMutablePointer<Float>.allocate(capacity: voiceCount)
    private let note = UnsafeMutablePointer<Int>.allocate(capacity: voiceCount)

    init() {
        for v in 0..<Self.voiceCount {
            phase[v] = 0
            step[v] = 0
            gain[v] = 0
            target[v] = 0
            note[v] = -1
        }
    }

    func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
        // A quiet drone on every voice, so the load does not depend on what MIDI arrives.
        for v in 0..<Self.voiceCount {
            step[v] = Float(2 * Double.pi * 110 * Double(v + 1) / sampleRate)
            target[v] = 0.01
        }
    }

    private func start(_ key: Int, at frame: Int) {
        let v = key % Self.voiceCount
        note[v] = key
        step[v] = Float(2 * Double.pi * 440 * pow(2, Double(key - 69) / 12) / sampleRate)
        target[v] = 0.05
    }

    func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        for event in midiIn {
            let kind = event.status & 0xF0
            if kind == 0x90 && event.data2 > 0 {
                start(Int(event.data1), at: event.frame)
            } else if kind == 0x80 || kind == 0x90 {
                let v = Int(event.data1) % Self.voiceCount
                if note[v] == Int(event.data1) { target[v] = 0.01 }
            }
            if kind == 0x80 || kind == 0x90 {
                midiOut.send(event.status, event.data1, event.data2, atFrame: event.frame)
            }
        }
        let smoothing: Float = 0.001
        for v in 0..<Self.voiceCount {
            var p = phase[v], g = gain[v]
            let s = step[v], t = target[v]
            let pan = Float(v) / Float(Self.voiceCount - 1)
            for i in 0..<frameCount {
                g += (t - g) * smoothing
                let x = g * sin(p)
                left[i] += x * (1 - pan)
                right[i] += x * pan
                p += s
                if p > 2 * .pi { p -= 2 * .pi }
            }
            phase[v] = p
            gain[v] = g
        }
    }
}
