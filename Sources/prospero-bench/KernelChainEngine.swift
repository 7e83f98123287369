import Ariel
import Touchstone

/// A one-voice `AudioEngine` built from every Touchstone kernel family, so the `EngineHost` render
/// path (command ring, MIDI split at frame offsets, snapshots, flush-to-zero) can be timed and
/// allocation-counted before Ariel's poly synth and Hecate's engine exist on main:
/// glide → band-limited saw → SVF low-pass → ADSR → tremolo → stereo delay → FDN reverb → limiter.
final class KernelChainEngine: AudioEngine {
    enum Command: Sendable {
        case cutoff(Float)
        case tremoloDepth(Float)
    }

    var glide = Glide(mode: .time(0.05), frequency: 220)
    var oscillator = BandLimitedOscillator(waveform: .saw, frequency: 220)
    var filter = StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 2)
    var envelope = ADSR(ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5))
    var tremolo = Tremolo(waveform: .sine, rate: .hertz(5), depth: 0.3)
    let delay = StereoDelay(maximumDelay: 1, delayTime: 0.3, feedback: 0.4, mix: 0.3)
    let reverb = FeedbackDelayNetworkReverb(decayTime: 2, size: 1, damping: 0.3, mix: 0.25)
    let limiter: BrickwallLimiter
    var note: UInt8 = 0
    var peak: Float = 0

    /// `truePeakLimiter` false runs the limiter on sample peaks (the engines table compares the two).
    init(truePeakLimiter: Bool = true) {
        limiter = BrickwallLimiter(ceiling: -1, truePeak: truePeakLimiter)
    }

    func prepare(_ spec: ProcessSpec) {
        glide.prepare(spec)
        oscillator.prepare(spec)
        filter.prepare(spec)
        envelope.prepare(spec)
        tremolo.prepare(spec)
        delay.prepare(spec)
        reverb.prepare(spec)
        limiter.prepare(spec)
    }

    func reset() {
        glide.reset()
        oscillator.reset()
        filter.reset()
        envelope.reset()
        tremolo.reset()
        delay.reset()
        reverb.reset()
        limiter.reset()
    }

    func handle(_ command: Command) {
        switch command {
        case .cutoff(let hz): filter.setCutoff(hz)
        case .tremoloDepth(let depth): tremolo.setDepth(depth)
        }
    }

    func handle(midi message: MIDIShortMessage) {
        switch message.status & 0xF0 {
        case 0x90 where message.data2 > 0:
            note = message.data1
            glide.setTarget(midiNote: Double(message.data1))
            envelope.gateOn()
        case 0x80, 0x90:
            if message.data1 == note { envelope.gateOff() }
        default: break
        }
    }

    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        for i in left.indices {
            oscillator.setFrequency(glide.nextSample())
            let y = filter.processSample(oscillator.nextSaw(), as: LowPassResponse.self) * envelope.nextSample()
            left[i] = y
        }
        tremolo.process(left)
        for i in left.indices { right[i] = left[i] }
        delay.process(left: left, right: right)
        reverb.process(left: left, right: right)
        limiter.process(left: left, right: right)
        for i in left.indices { peak = max(peak, abs(left[i]), abs(right[i])) }
    }

    func snapshot() -> Float { peak }

    func releaseAllNotes() { envelope.gateOff() }
}
