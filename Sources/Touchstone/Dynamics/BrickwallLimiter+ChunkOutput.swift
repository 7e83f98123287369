extension BrickwallLimiter.FrameState {
    /// Step 6 for `count` frames from frame `first` (true-peak mode, one chunk): frame i's output is the frame
    /// leaving the look-ahead times `gains[i]` (0…1), clamped to the ceiling it was measured against; the frames
    /// entering (`left[i]`, `right[i]`) and `ceilings[i]` (linear) go into the rings. `outLeft`/`outRight` must
    /// not overlap the inputs or the rings.
    ///
    /// Four frames at a time where that is the frame-by-frame `emit` exactly: the window is at least four frames
    /// (so none of the four reads a slot one of them writes), neither ring position wraps inside the four, and no
    /// product exceeds its ceiling (then the clamp does nothing). The products are the same IEEE multiplications;
    /// anywhere else one frame goes through `emit(_:at:…)`. `BrickwallLimiterBlockPathTests` compares the result
    /// with the one-frame path (a chunk of one frame) bit for bit.
    @inlinable
    mutating func emit(_ k: BrickwallLimiter.FrameSetup, first: Int, count: Int,
                       left: UnsafePointer<Float>, right: UnsafePointer<Float>,
                       gains: UnsafePointer<Float>, ceilings: UnsafePointer<Float>,
                       outLeft: UnsafeMutablePointer<Float>, outRight: UnsafeMutablePointer<Float>) {
        let mask = k.mask, window = k.window
        var i = 0
        if window >= 4 {
            while i &+ 4 <= count {
                let n = first &+ i
                let slot = n & mask, outSlot = (n &- window) & mask
                if slot &+ 3 <= mask && outSlot &+ 3 <= mask {
                    let gain = TruePeakDetector.load(gains + i)
                    let ceilingThen = TruePeakDetector.load(k.delayedCeiling + outSlot)
                    let l = TruePeakDetector.load(k.delayedLeft + outSlot) * gain
                    let r = TruePeakDetector.load(k.delayedRight + outSlot) * gain
                    let peak = TruePeakDetector.maximum(TruePeakDetector.magnitude(l), TruePeakDetector.magnitude(r))
                    if !TruePeakDetector.anyLane(peak .> ceilingThen) {
                        TruePeakDetector.store(TruePeakDetector.load(left + i), k.delayedLeft + slot)
                        TruePeakDetector.store(TruePeakDetector.load(right + i), k.delayedRight + slot)
                        TruePeakDetector.store(TruePeakDetector.load(ceilings + i), k.delayedCeiling + slot)
                        TruePeakDetector.store(l, outLeft + i)
                        TruePeakDetector.store(r, outRight + i)
                        self.lastOutputCeiling = ceilingThen[3]
                        i &+= 4
                        continue
                    }
                }
                let out = emit(k, at: n, gain: gains[i], ceilingNow: ceilings[i], left: left[i], right: right[i])
                outLeft[i] = out.left
                outRight[i] = out.right
                i &+= 1
            }
        }
        while i < count {
            let out = emit(k, at: first &+ i, gain: gains[i], ceilingNow: ceilings[i], left: left[i], right: right[i])
            outLeft[i] = out.left
            outRight[i] = out.right
            i &+= 1
        }
    }
}
