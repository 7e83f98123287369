import Touchstone

extension HiSynthEngine {
    /// Renders `left.count` frames (at most the prepared block size) into both channels.
    // Not marked `@_noAllocation @_noLocks`: calls into the parts' classes retain them, which the checker
    // counts as possible locking; HiSynthAllocationTests proves the path allocation-free instead.
    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = min(min(left.count, right.count), mono.count)   // (the variadic min would build an array)
        guard n > 0 else { return }
        let block = UnsafeMutableBufferPointer(rebasing: mono[0..<n])
        block.update(repeating: 0)

        // 1. Control runs: the LFOs every 16 samples; per-sample pitch and gain ramps; filter targets per run.
        let interval = HiSynthModulation.controlInterval
        let tickSeconds = Double(interval) / sampleRate
        var runCount = 0
        var i = 0
        var pitchUsed = pitchRouted || pitchHz != 0
        while i < n {
            if samplesUntilTick <= 0 {
                let t = modulation.tick(seconds: tickSeconds)
                pitchRouted = t.pitchRouted
                pitchStep = (t.pitchHz - pitchHz) / Float(interval)
                amplitudeStep = (t.amplitude - amplitude) / Float(interval)
                samplesUntilTick = interval
                runStarts[runCount] = i
                runLowFactors[runCount] = t.lowPassFactor
                runHighFactors[runCount] = t.highPassFactor
                runCount += 1
                if pitchRouted || pitchStep != 0 { pitchUsed = true }
            }
            let run = min(n - i, samplesUntilTick)
            var p = pitchHz, a = amplitude
            let ps = pitchStep, as_ = amplitudeStep
            for k in i..<(i + run) {
                p += ps
                a += as_
                pitchBuffer[k] = p
                gainBuffer[k] = a
            }
            pitchHz = p
            amplitude = a
            samplesUntilTick -= run
            if samplesUntilTick == 0 {
                // Land exactly on the targets (no drift from the running sums).
                pitchStep = 0
                amplitudeStep = 0
            }
            i += run
        }

        // 2. Voices: both layers into the mono sum.
        let pitch: UnsafePointer<Float>? = pitchUsed ? UnsafePointer(pitchBuffer.baseAddress!) : nil
        layer1.render(into: block.baseAddress!, scratch: layerScratch.baseAddress!, pitch: pitch, count: n, envelope)
        layer2.render(into: block.baseAddress!, scratch: layerScratch.baseAddress!, pitch: pitch, count: n, envelope)

        // 3. Filters, re-aimed at each control tick of this block.
        var start = 0
        for r in 0..<runCount {
            let runStart = runStarts[r]
            if runStart > start { filters.process(UnsafeMutableBufferPointer(rebasing: block[start..<runStart])) }
            // The base glides advance by a whole run at its tick, even when this block ends inside the run
            // (the rest of it renders in the next block without a tick): blocks never change the glide.
            filters.control(lowFactor: runLowFactors[r], highFactor: runHighFactors[r], runLength: interval)
            start = runStart
        }
        if start < n { filters.process(UnsafeMutableBufferPointer(rebasing: block[start..<n])) }

        // 4. The filter-out gain.
        for k in 0..<n { block[k] *= gainBuffer[k] }
        filterScope.write(UnsafeBufferPointer(block))

        // 5. Effects (stereo from the reverb on), 6. limiter, tap and meters.
        let l = UnsafeMutableBufferPointer(rebasing: left[0..<n])
        let r = UnsafeMutableBufferPointer(rebasing: right[0..<n])
        effects.process(mono: block, left: l, right: r)
        limiter.process(left: l, right: r)
        var peak = meterPeak
        for k in 0..<n { peak = max(peak, max(abs(l[k]), abs(r[k]))) }  // not variadic: that builds an array
        meterPeak = peak
        scope.write(UnsafeBufferPointer(l))
        frame += Int64(n)
    }
}
