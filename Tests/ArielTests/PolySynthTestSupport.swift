import Ariel
import Foundation
import Touchstone

/// Drives a `PolySynth` directly, sample-accurately: events at frame positions, audio kept.
struct PolySynthRig {
    let synth: PolySynth
    let sampleRate: Double
    let blockSize: Int
    var left: [Float] = []
    var right: [Float] = []

    init(capacity: Int = 16, settings: PolySynthSettings, sampleRate: Double = 48_000, blockSize: Int = 256) {
        synth = PolySynth(capacity: capacity, settings: settings)
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        synth.prepare(ProcessSpec(sampleRate: sampleRate, maximumBlockSize: blockSize, channelCount: 2))
    }

    var frame: Int { left.count }

    /// Renders `frames` more frames in blocks.
    mutating func render(frames: Int) {
        var l = [Float](repeating: 0, count: blockSize)
        var r = [Float](repeating: 0, count: blockSize)
        var remaining = frames
        while remaining > 0 {
            let n = min(blockSize, remaining)
            l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in
                    synth.render(left: UnsafeMutableBufferPointer(rebasing: lp[0..<n]),
                                 right: UnsafeMutableBufferPointer(rebasing: rp[0..<n]))
                }
            }
            left.append(contentsOf: l[0..<n])
            right.append(contentsOf: r[0..<n])
            remaining -= n
        }
    }

    mutating func render(seconds: Double) { render(frames: Int((seconds * sampleRate).rounded())) }

    func midi(_ status: UInt8, _ d1: UInt8, _ d2: UInt8 = 0) {
        synth.handle(midi: MIDIShortMessage(status: status, data1: d1, data2: d2)!)
    }
    func noteOn(_ note: UInt8, _ velocity: UInt8 = 100, channel: UInt8 = 0) { midi(0x90 | channel, note, velocity) }
    func noteOff(_ note: UInt8, channel: UInt8 = 0) { midi(0x80 | channel, note, 0) }
    func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) { midi(0xB0 | channel, controller, value) }
}

/// Settings for measurement: no effects, mono, no velocity scaling, instant envelope edges.
func cleanSettings(_ waveform: PolySynthSettings.Waveform = .sine) -> PolySynthSettings {
    var s = PolySynthSettings()
    s.waveform = waveform
    s.stereo = false
    s.velocitySensitivity = 0
    s.attack = 0.002
    s.decay = 0
    s.sustain = 1
    s.release = 0.01
    return s
}

enum Measure {
    /// Times (in samples, fractional) of upward zero crossings, found by linear interpolation.
    static func upwardCrossings(_ x: ArraySlice<Float>) -> [Double] {
        var result: [Double] = []
        var i = x.startIndex + 1
        while i < x.endIndex {
            let a = x[i - 1], b = x[i]
            if a < 0 && b >= 0 { result.append(Double(i - 1) + Double(a / (a - b))) }
            i += 1
        }
        return result
    }

    /// Mean frequency in Hz from the first to the last upward zero crossing.
    static func frequency(_ x: ArraySlice<Float>, sampleRate: Double) -> Double {
        let c = upwardCrossings(x)
        guard c.count > 2 else { return 0 }
        return Double(c.count - 1) / (c.last! - c.first!) * sampleRate
    }

    static func cents(_ measured: Double, _ expected: Double) -> Double { 1200 * log2(measured / expected) }

    static func peak(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }

    /// Peak of |x| in consecutive windows of `window` samples.
    static func envelope(_ x: ArraySlice<Float>, window: Int) -> [Float] {
        stride(from: x.startIndex, to: x.endIndex - window + 1, by: window).map { peak(x[$0..<($0 + window)]) }
    }

    /// Largest |x[n] − x[n−1]|.
    static func maximumStep(_ x: ArraySlice<Float>) -> Float {
        var m: Float = 0
        var i = x.startIndex + 1
        while i < x.endIndex {
            m = max(m, abs(x[i] - x[i - 1]))
            i += 1
        }
        return m
    }
}
