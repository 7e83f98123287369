import AllocationCounting
import Ariel
import Foundation
import Touchstone

/// Heap allocations per rendered 256-frame block for every render path on main: each Touchstone
/// kernel's `process`/`generate` (with parameter changes between blocks, as a drained command makes
/// them) and `EngineHost.process` over `KernelChainEngine`. Every figure must be 0.
///
/// Counted by the `CAllocationCounter` malloc interposer linked into this executable (glibc), on the
/// calling thread only, after one uncounted warm-up block.
enum AllocationBench {
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2)
    static let blocks = 2_000

    struct Table {
        var rows: [(name: String, allocations: Int, frees: Int)] = []
        var allZero: Bool { rows.allSatisfy { $0.allocations == 0 && $0.frees == 0 } }
        var markdown: String {
            var table = MarkdownTable(
                title: "Heap allocations per 256-frame block, \(AllocationBench.blocks) blocks each (`prospero-bench alloc`)",
                header: ["Render path", "Allocations per block", "Frees per block"])
            for row in rows {
                table.rows.append([row.name, perBlock(row.allocations), perBlock(row.frees)])
            }
            return table.markdown
        }
        private func perBlock(_ count: Int) -> String {
            count == 0 ? "0" : String(format: "**%.3f**", Double(count) / Double(AllocationBench.blocks))
        }
    }

    static func run() -> Table {
        precondition(AllocationCounter.isAvailable, "allocation counting is not interposing malloc")
        let left = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        let right = UnsafeMutableBufferPointer<Float>.allocate(capacity: 256)
        defer { left.deallocate(); right.deallocate() }
        func refill(_ block: Int) {
            let scale = Float(block % 7) + 0.5
            for i in 0..<256 {
                left[i] = scale * sin(Float(i &+ block) * 0.07)
                right[i] = scale * cos(Float(i &+ block) * 0.05)
            }
        }
        var table = Table()
        func row(_ name: String, _ body: (Int) -> Void) {
            body(0)
            let counts = AllocationCounter.counts {
                for block in 1...blocks { body(block) }
            }
            table.rows.append((name, counts.allocations, counts.frees))
        }

        for waveform in [Waveform.saw, .square, .pulse, .triangle, .sine] {
            var osc = BandLimitedOscillator(waveform: waveform, frequency: 220, pulseWidth: 0.3)
            osc.prepare(spec)
            row("BandLimitedOscillator \(waveform) `generate`") { block in
                osc.setFrequency(110 + Float(block % 50) * 20)
                osc.generate(into: left)
            }
        }
        var bank = DetunedOscillatorBank(waveform: .saw, frequency: 220, detuneCents: 8)
        bank.prepare(spec)
        row("DetunedOscillatorBank `generate`") { _ in bank.generate(into: left) }
        var lfo = LFO(waveform: .triangle, rate: .hertz(5))
        lfo.prepare(spec)
        row("LFO `generate`") { _ in lfo.generate(into: left) }
        var glide = Glide(mode: .time(0.1), frequency: 220)
        glide.prepare(spec)
        row("Glide `generate` (retargeted each block)") { block in
            glide.setTarget(midiNote: Double(40 + block % 30))
            glide.generate(into: left)
        }
        var envelope = ADSR(ADSR.Parameters(attack: 0.01, decay: 0.2, sustain: 0.7, release: 0.5))
        envelope.prepare(spec)
        row("ADSR `generate` (gate toggled)") { block in
            if block % 20 == 0 { envelope.gateOn() }
            if block % 20 == 10 { envelope.gateOff() }
            envelope.generate(into: left)
        }
        var smoothed = SmoothedParameter(initialValue: 100, style: .multiplicative, rampTime: 0.002)
        smoothed.prepare(sampleRate: 48_000)
        row("SmoothedParameter `next` ×256") { block in
            smoothed.setTarget(block % 2 == 0 ? 5_000 : 100)
            for i in 0..<256 { left[i] = smoothed.next() }
        }
        var svf = StateVariableFilter(mode: .lowPass, cutoff: 2_000, q: 5)
        svf.prepare(spec)
        row("StateVariableFilter `process` (cutoff moved)") { block in
            refill(block)
            svf.setCutoff(block % 2 == 0 ? 4_000 : 500)
            svf.process(left)
        }
        var stereoSVF = StereoStateVariableFilter(mode: .bandPass, cutoff: 2_000, q: 5)
        stereoSVF.prepare(spec)
        row("StereoStateVariableFilter `process`") { block in
            refill(block)
            stereoSVF.process(left: left, right: right)
        }
        var formant = FormantFilter(vowel: .a, q: 8, mix: (0.2, 1, 0.8))
        formant.prepare(spec)
        row("FormantFilter `process`") { block in
            refill(block)
            formant.process(left)
        }
        var tremolo = Tremolo(waveform: .square, rate: .synced(.eighth, bpm: 120), depth: 0.7)
        tremolo.prepare(spec)
        row("Tremolo `process` (stereo)") { block in
            refill(block)
            tremolo.setDepth(Float(block % 10) / 10)
            tremolo.process(left: left, right: right)
        }
        var tone = ToneFilter(cutoff: 3_000)
        tone.prepare(spec)
        row("ToneFilter `process`") { block in
            refill(block)
            tone.tone = Float(block % 10) / 10
            tone.process(left)
        }
        var fuzz = Fuzz(drive: 20)
        fuzz.prepare(spec)
        row("Fuzz `process`") { block in
            refill(block)
            fuzz.drive = Float(block % 48)
            fuzz.process(left)
        }
        var clip = SoftClipDistortion(gain: 6, mix: 0.7)
        clip.prepare(spec)
        row("SoftClipDistortion `process`") { block in
            refill(block)
            clip.process(left)
        }
        var crusher = Decimator(reductionFactor: 3.5, bitDepth: 6, mix: 0.8)
        crusher.prepare(spec)
        row("Decimator `process`") { block in
            refill(block)
            crusher.bitDepth = Float(block % 24) + 1
            crusher.process(left)
        }
        let delay = DelayLine(maximumDelay: 1, delayTime: 0.3, feedback: 0.6, mix: 0.5)
        delay.prepare(spec)
        row("DelayLine `process` (time moved)") { block in
            refill(block)
            delay.delayTime = 0.1 + Float(block % 9) * 0.05
            delay.process(left)
        }
        let stereoDelay = StereoDelay(maximumDelay: 1)
        stereoDelay.prepare(spec)
        row("StereoDelay `process`") { block in
            refill(block)
            stereoDelay.process(left: left, right: right)
        }
        let reverb = FeedbackDelayNetworkReverb(decayTime: 3, size: 1, damping: 0.4, mix: 0.4)
        reverb.prepare(spec)
        row("FeedbackDelayNetworkReverb `process`") { block in
            refill(block)
            reverb.decayTime = 0.5 + Float(block % 10)
            reverb.process(left: left, right: right)
        }
        var protector = SpikeProtector()
        protector.prepare(spec)
        row("SpikeProtector `process`") { block in
            refill(block)
            protector.process(left: left, right: right)
        }
        let limiter = BrickwallLimiter(ceiling: -6)
        limiter.prepare(spec)
        row("BrickwallLimiter `process`") { block in
            refill(block)
            limiter.process(left: left, right: right)
        }

        let host = EngineHost(engine: KernelChainEngine(), spec: spec)
        let noteOn = MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!
        let noteOff = MIDIShortMessage(status: 0x80, data1: 60, data2: 0)!
        let events = UnsafeMutableBufferPointer<TimedMIDIMessage>.allocate(capacity: 2)
        events.initialize(repeating: TimedMIDIMessage(frameOffset: 0, message: noteOn))
        defer { events.deallocate() }
        events[1] = TimedMIDIMessage(frameOffset: 128, message: noteOff)
        row("EngineHost `process` over KernelChainEngine (commands + MIDI each block)") { block in
            host.send(.cutoff(500 + Float(block % 30) * 100))
            host.process(left: left, right: right, midi: UnsafeBufferPointer(events))
        }
        return table
    }
}
