import Foundation
import Touchstone

/// HiSynth's effects in the original's fixed order: decimator → drive → delay (all mono, as the voices
/// are) → reverb (mono in, stereo out). Each is one of Touchstone's kernels standing in for a closed
/// Apple Audio Unit (spec §1, Effects; "Port"):
/// - Decimator (AUDistortion decimation 0…30 %, final mix 0…100 %, rounding 0): `Decimator`
///   holding each sample 256^(rate/100) samples (1 at 0 %, 5.3 at 30 %, 256 at 100 %), no bit
///   reduction, mix = percent / 100. The mapping of Apple's percentage is ours.
/// - Drive (AUDistortion soft-clip gain −40…20 dB, polynomial mix 0…100 %): `SoftClipDistortion`
///   (cubic soft clip after the pre-gain), mix = percent / 100. AUDistortion's built-in delay, ring
///   modulator and decimation colour, which the original leaves at their defaults, are not modelled.
/// - Delay (AVAudioUnitDelay: time 0…2 s, feedback 0…100 %, wet/dry 0…100 %, low-pass 15 kHz in the
///   loop): `DelayLine` with the same time, feedback / 100 (at most 0.99), mix / 100 and 15 kHz damping.
/// - Reverb (AVAudioUnitReverb factory presets, wet/dry 0…1): `FeedbackDelayNetworkReverb` with the
///   `HiSynthReverbVariant` parameters; "off" sets the wet share to 0 as the original does.
/// Switching an effect on or off cross-fades it over 10 ms (an effect fully off costs nothing and is
/// cleared before it comes back); a reverb variant change fades the reverb out, changes it and fades
/// it back in. Every parameter is smoothed by its kernel.
final class HiSynthEffectsChain {
    static let bypassTime = 0.01
    static let delayDamping: Float = 15_000

    var decimator = Decimator()
    var drive = SoftClipDistortion()
    let delay = DelayLine(maximumDelay: 2.0)
    let reverb = FeedbackDelayNetworkReverb(decayTime: 0.8, size: 0.7, damping: 0.45, mix: 1)
    var decimatorWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: bypassTime)
    var driveWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: bypassTime)
    var delayWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: bypassTime)
    var reverbWet = SmoothedParameter(initialValue: 0, style: .linear, rampTime: bypassTime)
    var decimatorRunning = false
    var driveRunning = false
    var delayRunning = false
    var reverbRunning = false
    /// The variant the reverb is set to, and the one waiting for the fade-out.
    var reverbVariant: HiSynthReverbVariant = .mediumRoom
    var pendingVariant: HiSynthReverbVariant?
    /// The wet share the reverb returns to after a variant change.
    var reverbMix: Float = 0
    var scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)

    deinit { scratch.deallocate() }

    func prepare(_ spec: ProcessSpec) {
        let mono = ProcessSpec(sampleRate: spec.sampleRate, maximumBlockSize: spec.maximumBlockSize, channelCount: 1)
        let stereo = ProcessSpec(sampleRate: spec.sampleRate, maximumBlockSize: spec.maximumBlockSize, channelCount: 2)
        scratch.deallocate()
        scratch = .allocate(capacity: spec.maximumBlockSize)
        scratch.initialize(repeating: 0)
        decimator.prepare(mono)
        drive.prepare(mono)
        delay.dampingCutoff = Self.delayDamping
        delay.prepare(mono)
        reverb.prepare(stereo)
        for p in [\HiSynthEffectsChain.decimatorWet, \.driveWet, \.delayWet, \.reverbWet] {
            self[keyPath: p].prepare(sampleRate: spec.sampleRate)
        }
        reset()
    }

    func reset() {
        decimator.reset()
        drive.reset()
        delay.reset()
        reverb.reset()
        if let pendingVariant { setVariant(pendingVariant) }
        pendingVariant = nil
        // One by one, not a loop over key paths: that array is built on every call, and `reset` runs on the
        // audio thread (an LV2 host's first `run` after `activate`), where nothing may allocate.
        decimatorWet.snap(to: decimatorWet.target)
        driveWet.snap(to: driveWet.target)
        delayWet.snap(to: delayWet.target)
        reverbWet.snap(to: reverbMix)
    }

    func apply(_ e: HiSynthSettings.Effects, snap: Bool) {
        decimator.reductionFactor = Float(Foundation.pow(256, Double(e.decimatorRate) / 100))
        decimator.bitDepth = 24
        decimator.mix = e.decimatorMix
        drive.gain = e.driveGain
        drive.mix = e.driveMix
        delay.delayTime = e.delayTime
        delay.feedback = min(e.delayFeedback, 0.99)
        delay.mix = e.delayMix
        // Settings made by hand may hold anything; the kernels clamp their own values, this one is ours.
        reverbMix = e.reverbOn && e.reverbMix.isFinite ? min(max(e.reverbMix, 0), 1) : 0
        if snap {
            decimatorWet.snap(to: e.decimatorOn ? 1 : 0)
            driveWet.snap(to: e.driveOn ? 1 : 0)
            delayWet.snap(to: e.delayOn ? 1 : 0)
            setVariant(e.reverbVariant)
            pendingVariant = nil
            reverbWet.snap(to: reverbMix)
        } else {
            decimatorWet.setTarget(e.decimatorOn ? 1 : 0)
            driveWet.setTarget(e.driveOn ? 1 : 0)
            delayWet.setTarget(e.delayOn ? 1 : 0)
            if e.reverbVariant != reverbVariant && (reverbRunning || reverbWet.current > 0) {
                pendingVariant = e.reverbVariant
                reverbWet.setTarget(0)
            } else {
                if e.reverbVariant != reverbVariant { setVariant(e.reverbVariant) }
                pendingVariant = nil
                reverbWet.setTarget(reverbMix)
            }
        }
    }

    private func setVariant(_ v: HiSynthReverbVariant) {
        reverbVariant = v
        reverb.size = v.size
        reverb.decayTime = v.decayTime
        reverb.damping = v.damping
        reverb.diffusion = v.diffusion
    }

    /// Runs the chain: `mono` in place through the three mono effects, then copies it to `left` and
    /// `right` and runs the reverb on them.
    func process(mono: UnsafeMutableBufferPointer<Float>, left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = mono.count
        let wet = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
        if Self.isAudible(decimatorWet) {
            if !decimatorRunning { decimator.reset() }
            decimatorRunning = true
            if Self.isFullyWet(decimatorWet) { decimator.process(mono) } else {
                _ = wet.update(fromContentsOf: mono)
                decimator.process(wet)
                crossfade(&decimatorWet, mono, wet)
            }
        } else { decimatorRunning = false }
        if Self.isAudible(driveWet) {
            if !driveRunning { drive.reset() }
            driveRunning = true
            if Self.isFullyWet(driveWet) { drive.process(mono) } else {
                _ = wet.update(fromContentsOf: mono)
                drive.process(wet)
                crossfade(&driveWet, mono, wet)
            }
        } else { driveRunning = false }
        if Self.isAudible(delayWet) {
            if !delayRunning { delay.reset() }
            delayRunning = true
            if Self.isFullyWet(delayWet) { delay.process(mono) } else {
                _ = wet.update(fromContentsOf: mono)
                delay.process(wet)
                crossfade(&delayWet, mono, wet)
            }
        } else { delayRunning = false }
        _ = left.update(fromContentsOf: mono)
        _ = right.update(fromContentsOf: mono)
        if Self.isAudible(reverbWet) {
            if !reverbRunning { reverb.reset() }
            reverbRunning = true
            // The reverb runs wet-only into `left`/`right`; the dry signal is still in `mono`.
            reverb.process(left: left, right: right)
            var w = reverbWet
            for i in 0..<n {
                let amount = w.next()
                let dry = mono[i]
                left[i] = dry + amount * (left[i] - dry)
                right[i] = dry + amount * (right[i] - dry)
            }
            reverbWet = w
        } else { reverbRunning = false }
        if let pending = pendingVariant, !reverbWet.isSmoothing, reverbWet.current == 0 {
            setVariant(pending)
            pendingVariant = nil
            reverb.reset()
            reverbWet.setTarget(reverbMix)
        }
    }

    @inline(__always)
    static func isAudible(_ wet: SmoothedParameter) -> Bool { wet.isSmoothing || wet.current > 0 }

    @inline(__always)
    static func isFullyWet(_ wet: SmoothedParameter) -> Bool { !wet.isSmoothing && wet.current == 1 }

    /// dry += wet·(processed − dry), the bypass gain moving per sample.
    private func crossfade(_ gain: inout SmoothedParameter, _ dry: UnsafeMutableBufferPointer<Float>, _ processed: UnsafeMutableBufferPointer<Float>) {
        var g = gain
        for i in 0..<dry.count {
            let amount = g.next()
            dry[i] += amount * (processed[i] - dry[i])
        }
        gain = g
    }
}
