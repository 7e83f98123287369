import Foundation
import Touchstone

extension PolySynth {
    /// Renders `left.count` frames (≤ the prepared maximum block size) of stereo, overwriting both
    /// buffers. Output is finite and within ±ceiling. Allocation-free.
    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = min(min(left.count, right.count), spec.maximumBlockSize)
        guard n > 0, let outL = left.baseAddress, let outR = right.baseAddress else { return }
        renderModulation(n)
        switch voiceRendering {
        case .lanes: renderVoiceLanes(n)
        case .scalar: renderVoices(n)
        }
        let m = mid.baseAddress!, sd = side.baseAddress!, g = level.baseAddress!
        var spreadNow = spread
        if spreadNow.isSmoothing {
            for i in 0..<n {
                let s = spreadNow.next() * sd[i]
                outL[i] = (m[i] + s) * g[i]
                outR[i] = (m[i] - s) * g[i]
            }
        } else {
            // Settled: the same products with the spread held (a loop without a branch vectorises).
            let spreadValue = spreadNow.current
            for i in 0..<n {
                let s = spreadValue * sd[i]
                outL[i] = (m[i] + s) * g[i]
                outR[i] = (m[i] - s) * g[i]
            }
        }
        spread = spreadNow
        let l = UnsafeMutableBufferPointer(start: outL, count: n)
        let r = UnsafeMutableBufferPointer(start: outR, count: n)
        renderEffects(l, r)
        var widthNow = width, gainNow = outputGain
        if widthNow.isSmoothing || gainNow.isSmoothing {
            for i in 0..<n {
                let w = widthNow.next(), gain = gainNow.next()
                let a = outL[i], b = outR[i]
                let center = 0.5 * (a + b), difference = 0.5 * (a - b) * w
                outL[i] = (center + difference) * gain
                outR[i] = (center - difference) * gain
            }
        } else {
            let w = widthNow.current, gain = gainNow.current
            for i in 0..<n {
                let a = outL[i], b = outR[i]
                let center = 0.5 * (a + b), difference = 0.5 * (a - b) * w
                outL[i] = (center + difference) * gain
                outR[i] = (center - difference) * gain
            }
        }
        width = widthNow
        outputGain = gainNow
        limiter.process(left: l, right: r)
        var peak = meterPeak
        var squares: Float = 0
        for i in 0..<n {
            peak = max(peak, max(abs(outL[i]), abs(outR[i])))
            squares += outL[i] * outL[i] + outR[i] * outR[i]
        }
        meterPeak = peak
        meterSquares += Double(squares)
        meterFrames += n
        // Frames beyond the prepared block size (a caller error) are silenced, never garbage.
        for i in n..<left.count { left[i] = 0 }
        for i in n..<right.count { right[i] = 0 }
    }

    /// Pitch ratio (bend, vibrato) and level (tremolo, CC 7 × CC 11) per sample; clears the voice sums.
    private func renderModulation(_ n: Int) {
        let r = ratio.baseAddress!, g = level.baseAddress!, m = mid.baseAddress!, sd = side.baseAddress!
        var lfoNow = lfo, depthNow = depth, vibratoNow = vibratoMix, tremoloNow = tremoloMix
        var bendNow = bend, levelNow = channelLevel
        let pitchFixed = !bendNow.isSmoothing && !depthNow.isSmoothing && !vibratoNow.isSmoothing
            && (depthNow.current == 0 || vibratoNow.current == 0)
        let fixedRatio = exp2(bendNow.current / 12)
        if pitchFixed && !depthNow.isSmoothing && depthNow.current == 0 {
            // No depth (the mod wheel down): tremolo is ±0, so the gain is exactly 1 × the level and the
            // ratio fixed; the LFO's phase still moves, its waveform is not needed.
            lfoNow.advance(count: n)
            for i in 0..<n {
                _ = vibratoNow.next()
                _ = tremoloNow.next()
                _ = bendNow.next()
                r[i] = fixedRatio
                g[i] = levelNow.next()
                m[i] = 0
                sd[i] = 0
            }
            ratioIsFixed = true
            lfo = lfoNow; depth = depthNow; vibratoMix = vibratoNow; tremoloMix = tremoloNow
            bend = bendNow; channelLevel = levelNow
            return
        }
        for i in 0..<n {
            let x = lfoNow.nextSample()
            let d = depthNow.next()
            let vibrato = vibratoNow.next() * d
            let tremolo = tremoloNow.next() * d
            let semitones = bendNow.next()
            r[i] = pitchFixed ? fixedRatio : exp2((semitones + vibrato * Self.vibratoSemitones * x) / 12)
            g[i] = (1 - Self.tremoloDepth * tremolo * (0.5 + 0.5 * x)) * levelNow.next()
            m[i] = 0
            sd[i] = 0
        }
        ratioIsFixed = pitchFixed
        lfo = lfoNow; depth = depthNow; vibratoMix = vibratoNow; tremoloMix = tremoloNow
        bend = bendNow; channelLevel = levelNow
    }

    private func renderVoices(_ n: Int) {
        let m = mid.baseAddress!, sd = side.baseAddress!, r = UnsafePointer(ratio.baseAddress!)
        for v in 0..<capacity {
            if voices[v].isSounding { voices[v].render(mid: m, side: sd, ratio: r, count: n) }
            if !voices[v].isSounding && allocator.state(of: v) != .free { allocator.voiceBecameIdle(v) }
        }
    }

    private func renderEffects(_ l: UnsafeMutableBufferPointer<Float>, _ r: UnsafeMutableBufferPointer<Float>) {
        if Self.isAudible(toneWet) {
            if !toneRunning { toneLeft.reset(); toneRight.reset() }
            toneRunning = true
            if Self.isFullyWet(toneWet) {
                toneLeft.process(l); toneRight.process(r)
            } else {
                let (wl, wr) = copyToWet(l, r)
                toneLeft.process(wl); toneRight.process(wr)
                crossfade(&toneWet, l, r)
            }
        } else { toneRunning = false }
        if Self.isAudible(fuzzWet) {
            if !fuzzRunning { fuzzLeft.reset(); fuzzRight.reset() }
            fuzzRunning = true
            if Self.isFullyWet(fuzzWet) {
                fuzzLeft.process(l); fuzzRight.process(r)
            } else {
                let (wl, wr) = copyToWet(l, r)
                fuzzLeft.process(wl); fuzzRight.process(wr)
                crossfade(&fuzzWet, l, r)
            }
        } else { fuzzRunning = false }
        if Self.isAudible(delayWet) {
            if !delayRunning { delay.reset() }
            delayRunning = true
            if Self.isFullyWet(delayWet) {
                delay.process(left: l, right: r)
            } else {
                let (wl, wr) = copyToWet(l, r)
                delay.process(left: wl, right: wr)
                crossfade(&delayWet, l, r)
            }
        } else { delayRunning = false }
        if Self.isAudible(reverbWet) {
            if !reverbRunning { reverb.reset() }
            reverbRunning = true
            if Self.isFullyWet(reverbWet) {
                reverb.process(left: l, right: r)
            } else {
                let (wl, wr) = copyToWet(l, r)
                reverb.process(left: wl, right: wr)
                crossfade(&reverbWet, l, r)
            }
        } else { reverbRunning = false }
    }

    @inline(__always)
    private static func isAudible(_ wet: SmoothedParameter) -> Bool { wet.isSmoothing || wet.current > 0 }

    @inline(__always)
    private static func isFullyWet(_ wet: SmoothedParameter) -> Bool { !wet.isSmoothing && wet.current == 1 }

    private func copyToWet(
        _ l: UnsafeMutableBufferPointer<Float>, _ r: UnsafeMutableBufferPointer<Float>
    ) -> (UnsafeMutableBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) {
        let n = l.count
        let wl = UnsafeMutableBufferPointer(start: wetLeft.baseAddress!, count: n)
        let wr = UnsafeMutableBufferPointer(start: wetRight.baseAddress!, count: n)
        for i in 0..<n {
            wl[i] = l[i]
            wr[i] = r[i]
        }
        return (wl, wr)
    }

    /// l += wet·(processed − l), with the bypass gain moving per sample.
    private func crossfade(_ wet: inout SmoothedParameter, _ l: UnsafeMutableBufferPointer<Float>, _ r: UnsafeMutableBufferPointer<Float>) {
        let wl = wetLeft.baseAddress!, wr = wetRight.baseAddress!
        var w = wet
        for i in 0..<l.count {
            let amount = w.next()
            l[i] += amount * (wl[i] - l[i])
            r[i] += amount * (wr[i] - r[i])
        }
        wet = w
    }
}
