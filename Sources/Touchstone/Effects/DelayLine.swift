import Foundation

/// A modulatable feedback delay (echo) with 4-point Hermite interpolation.
///
///     w[n] = x[n] + feedback · LP(y[n])        (written into the line)
///     y[n] = w[n − d] read with Hermite interpolation at fractional d
///     out  = x + mix·(y − x)
///
/// - `delayTime` (seconds, ≥ 2 samples … `maximumDelay`) is smoothed per sample
///   with a one-pole of `delayTimeSmoothing` seconds, so a time change glides
///   (a tape-like pitch bend) instead of jumping; 0 switches instantly (clicks).
/// - Per-sample modulation (vibrato, chorus, flanger) goes through
///   `process(_:modulation:)` as a delay offset in seconds per sample.
/// - Interpolation is Niemitalo's 4-point, 3rd-order Hermite (x-form,
///   `HermiteInterpolation`): C1
///   continuous, so a modulated read position has no slope discontinuities; its
///   magnitude response never exceeds 1, so the loop stays stable.
/// - `feedback` (−0.99…0.99) is clamped below 1 in magnitude; with the damping
///   filter's unity DC gain the loop gain is < 1 at every frequency.
/// - `dampingCutoff` (Hz, 200…20 000) sets a one-pole low-pass inside the loop, so
///   each repeat is darker than the last; 20 000 (the default) or ≥ 0.49·fs bypasses it.
/// - `mix` (0…1) cross-fades dry to the delayed signal.
///
/// Storage for `maximumDelay` seconds (plus modulation headroom) is allocated and
/// zeroed in `prepare`. Mono: use two instances for stereo (`StereoDelay` does that).
/// Output never denormal (loop state is flushed). A NaN input circulates in the
/// loop until `reset()`.
///
/// `reset()` is O(1) and safe on the audio thread: it does not clear the line (512 KiB
/// for 2 s at 48 kHz). It restarts a count of samples written, and until the whole line
/// has been written once since the reset, a tap reaching back before the reset reads 0
/// (what a cleared line holds): the output is that of a cleared line, sample for sample.
///
/// Thread confinement: use an instance from one thread at a time (the audio
/// thread, or setup code before it starts). Its stored properties are
/// `@exclusivity(unchecked)`, dropping the per-access dynamic exclusivity checks
/// a class would otherwise pay in the per-sample loop.
public final class DelayLine: MonoProcessor {
    /// The longest delay the line can hold, in seconds (set at creation).
    public let maximumDelay: Double
    /// Shortest delay, in samples (Hermite reads one sample ahead of the integer position).
    @inlinable public static var minimumDelaySamples: Float { 2 }

    @exclusivity(unchecked) @usableFromInline var buffer: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var mask: Int = 0
    @exclusivity(unchecked) @usableFromInline var writeIndex: Int = 0
    // Samples written since the last reset, counted up to the line's length (mask + 1);
    // from there on the whole line holds post-reset samples and taps need no guard.
    @exclusivity(unchecked) @usableFromInline var freshWrites: Int = 0
    @exclusivity(unchecked) @usableFromInline var maximumDelaySamples: Float = 2
    @exclusivity(unchecked) @usableFromInline var sampleRate: Float = 48_000

    @exclusivity(unchecked) @usableFromInline var delaySamplesTarget: Float = 2
    @exclusivity(unchecked) @usableFromInline var delaySamples: Float = 2
    @exclusivity(unchecked) @usableFromInline var delaySmoothingCoefficient: Float = 1
    @exclusivity(unchecked) @usableFromInline var parameterSmoothingCoefficient: Float = 1
    @exclusivity(unchecked) @usableFromInline var feedbackTarget: Float = 0
    @exclusivity(unchecked) @usableFromInline var feedbackValue: Float = 0
    @exclusivity(unchecked) @usableFromInline var mixTarget: Float = 0.5
    @exclusivity(unchecked) @usableFromInline var mixValue: Float = 0.5
    @exclusivity(unchecked) @usableFromInline var dampingTarget: Float = 1
    @exclusivity(unchecked) @usableFromInline var dampingValue: Float = 1
    @exclusivity(unchecked) @usableFromInline var loopFilterState: Float = 0

    @exclusivity(unchecked) var delayTimeSetting: Float
    @exclusivity(unchecked) var dampingCutoffSetting: Float = 20_000

    /// Creates a delay line able to hold `maximumDelay` seconds (0.001…60).
    public init(maximumDelay: Double = 2, delayTime: Float = 0.5, feedback: Float = 0.5, mix: Float = 0.5) {
        precondition(maximumDelay > 0 && maximumDelay <= 60, "maximum delay must be in 0…60 s")
        self.maximumDelay = maximumDelay
        delayTimeSetting = delayTime
        buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        buffer.initialize(to: 0)
        self.feedback = feedback
        self.mix = mix
    }

    deinit {
        buffer.deallocate()
    }

    /// Delay time in seconds, clamped to 2 samples … `maximumDelay`. Smoothed
    /// (see `delayTimeSmoothing`).
    public var delayTime: Float {
        get { delayTimeSetting }
        set {
            delayTimeSetting = newValue.isFinite ? max(newValue, 0) : 0
            updateDelayTarget()
        }
    }

    /// Time constant of the delay-time glide, in seconds (0…2; 0 = jump, which clicks).
    public var delayTimeSmoothing: Float = 0.05 {
        didSet {
            delayTimeSmoothing = delayTimeSmoothing.clamped(to: 0...2, nonFinite: 0.05)
            updateSmoothing()
        }
    }

    /// Feedback gain, −0.99…0.99 (clamped; negative inverts every other repeat). Smoothed.
    public var feedback: Float {
        get { feedbackTarget }
        set { feedbackTarget = newValue.clamped(to: -0.99...0.99, nonFinite: 0) }
    }

    /// Dry/wet, 0 (dry) … 1 (only the delayed signal) (clamped). Smoothed.
    public var mix: Float {
        get { mixTarget }
        set { mixTarget = newValue.clamped(to: 0...1, nonFinite: 0) }
    }

    /// Cutoff of the in-loop low-pass, in Hz (200…20 000, clamped; 20 000 or ≥ 0.49·fs = off). Smoothed.
    public var dampingCutoff: Float {
        get { dampingCutoffSetting }
        set {
            dampingCutoffSetting = newValue.clamped(to: 200...20_000, nonFinite: 20_000)
            updateDampingTarget()
        }
    }

    /// The current smoothed delay, in samples (for display and tests).
    public var currentDelaySamples: Float { delaySamples }

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        // Headroom for ±50 ms of modulation and the 4 Hermite taps.
        let longest = Int((maximumDelay + 0.05) * spec.sampleRate) + 4
        var size = 4
        while size < longest { size <<= 1 }
        buffer.deallocate()
        buffer = UnsafeMutablePointer<Float>.allocate(capacity: size)
        // Zeroed here, off the audio thread, so every page is touched before the first period.
        buffer.initialize(repeating: 0, count: size)
        mask = size - 1
        maximumDelaySamples = Float(size - 3)
        updateDelayTarget()
        updateDampingTarget()
        updateSmoothing()
        reset()
    }

    /// Silences the line and jumps every smoothed parameter to its target. O(1): no allocation
    /// and no clearing of the line (taps reaching before the reset read 0 until the line has been
    /// rewritten; see the type's note), so it is safe on the audio thread.
    public func reset() {
        writeIndex = 0
        freshWrites = 0
        loopFilterState = 0
        delaySamples = delaySamplesTarget
        feedbackValue = feedbackTarget
        mixValue = mixTarget
        dampingValue = dampingTarget
    }

    /// The per-sample state: smoothed delay (samples), feedback, mix, damping, the
    /// loop filter and the write position.
    @usableFromInline typealias LoopState = (delay: Float, feedback: Float, mix: Float, damping: Float, loop: Float, write: Int)
    /// What stays fixed across a block: the buffer, its mask, the delay bounds, the
    /// smoothing coefficients and the targets.
    @usableFromInline typealias BlockConstants = (
        buffer: UnsafeMutablePointer<Float>, mask: Int, sampleRate: Float, longest: Float,
        delayCoefficient: Float, parameterCoefficient: Float,
        delayTarget: Float, feedbackTarget: Float, mixTarget: Float, dampingTarget: Float
    )

    @inlinable @inline(__always)
    var loopState: LoopState {
        get { (delaySamples, feedbackValue, mixValue, dampingValue, loopFilterState, writeIndex) }
        set {
            delaySamples = newValue.delay
            feedbackValue = newValue.feedback
            mixValue = newValue.mix
            dampingValue = newValue.damping
            loopFilterState = newValue.loop
            writeIndex = newValue.write
        }
    }

    @inlinable @inline(__always)
    var blockConstants: BlockConstants {
        (buffer, mask, sampleRate, maximumDelaySamples, delaySmoothingCoefficient, parameterSmoothingCoefficient,
         delaySamplesTarget, feedbackTarget, mixTarget, dampingTarget)
    }

    /// One sample on state the caller holds in locals (so nothing is reloaded after
    /// the store into the buffer).
    @inlinable @inline(__always)
    func step(_ input: Float, modulation: Float, _ s: inout LoopState, _ k: BlockConstants,
              guarded: Bool = false, fresh: Int = 0) -> Float {
        s.delay += k.delayCoefficient * (k.delayTarget - s.delay)
        s.feedback += k.parameterCoefficient * (k.feedbackTarget - s.feedback)
        s.mix += k.parameterCoefficient * (k.mixTarget - s.mix)
        s.damping += k.parameterCoefficient * (k.dampingTarget - s.damping)

        let shortest: Float = 2  // minimumDelaySamples (a type reference would touch class metadata)
        var delay = s.delay + modulation * k.sampleRate
        delay = delay > shortest ? delay : shortest  // also catches NaN
        delay = delay < k.longest ? delay : k.longest
        let whole = Int(delay)
        let fraction = delay - Float(whole)
        // Delay k reads the sample written k calls ago (writeIndex - k).
        let newest = s.write &- whole
        let buffer = k.buffer, mask = k.mask
        var a = buffer[(newest &+ 1) & mask], b = buffer[newest & mask]
        var c = buffer[(newest &- 1) & mask], d = buffer[(newest &- 2) & mask]
        if guarded {
            // `fresh` samples were written since the reset; a tap written k calls ago with
            // k > fresh reaches before it and reads 0 (`guarded` is a constant at each call site).
            if whole &- 1 > fresh { a = 0 }
            if whole > fresh { b = 0 }
            if whole &+ 1 > fresh { c = 0 }
            if whole &+ 2 > fresh { d = 0 }
        }
        let delayed = HermiteInterpolation.interpolate(a, b, c, d, at: fraction)
        s.loop = DenormalGuard.flush(s.loop + s.damping * (delayed - s.loop))
        buffer[s.write & mask] = DenormalGuard.flush(input + s.feedback * s.loop)
        s.write = (s.write &+ 1) & mask
        return input + s.mix * (delayed - input)
    }

    /// Processes one sample with the delay offset by `modulation` seconds (the
    /// total is clamped to 2 samples … `maximumDelay` + 50 ms).
    @inlinable @inline(__always)
    public func processSample(_ input: Float, modulation: Float) -> Float {
        var s = loopState
        let output: Float
        if freshWrites <= mask {
            output = step(input, modulation: modulation, &s, blockConstants, guarded: true, fresh: freshWrites)
            freshWrites &+= 1
        } else {
            output = step(input, modulation: modulation, &s, blockConstants)
        }
        loopState = s
        return output
    }

    /// Samples of a block of `count` that need guarded taps (shortly after a reset).
    @inlinable @inline(__always)
    func guardedCount(_ count: Int) -> Int {
        freshWrites <= mask ? min(count, mask &+ 1 &- freshWrites) : 0
    }

    /// Processes one sample at the current delay time.
    @inlinable @inline(__always)
    public func processSample(_ input: Float) -> Float {
        processSample(input, modulation: 0)
    }

    /// Processes a block in place (at most the prepared maximum block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        guard let base = buffer.baseAddress else { return }
        var s = loopState
        let k = blockConstants
        var guarded = guardedCount(buffer.count)
        let settled = isSettled(s, k)
        if guarded > 0 {
            let fresh = freshWrites
            // Settled, with the oldest tap (`whole + 2` writes back) written since the reset: the guard cannot
            // zero a tap anywhere in the block (`fresh` only grows), so the guarded step is the plain one and the
            // settled path applies (a long line, 2.7 s in the poly synth, is otherwise guarded that long after each
            // reset). The count of fresh writes moves on as before.
            if settled {
                if fresh >= settledWholeDelay(s, k) &+ 2 {
                    freshWrites = fresh &+ guarded
                    guarded = 0
                }
            }
            if guarded > 0 {
                for i in 0..<guarded { base[i] = step(base[i], modulation: 0, &s, k, guarded: true, fresh: fresh &+ i) }
                freshWrites = fresh &+ guarded
            }
        }
        var i = guarded
        if i < buffer.count {  // (no `&&`: its autoclosure would retain self)
            var settledNow = settled
            if !settledNow { if guarded > 0 { settledNow = isSettled(s, k) } }  // a guarded run may have settled it
            if settledNow { i = processSettled(base, from: i, to: buffer.count, &s, k) }
        }
        while i < buffer.count {
            base[i] = step(base[i], modulation: 0, &s, k)
            i &+= 1
        }
        loopState = s
    }

    /// Whether one smoothing step leaves every parameter where it is (bit for bit). The steps are a
    /// fixed function of value and target, so a parameter at its fixed point stays there for the block.
    @inlinable @inline(__always)
    func isSettled(_ s: LoopState, _ k: BlockConstants) -> Bool {
        let delay = s.delay + k.delayCoefficient * (k.delayTarget - s.delay)
        let feedback = s.feedback + k.parameterCoefficient * (k.feedbackTarget - s.feedback)
        let mix = s.mix + k.parameterCoefficient * (k.mixTarget - s.mix)
        let damping = s.damping + k.parameterCoefficient * (k.dampingTarget - s.damping)
        // Bit patterns compared, so −0 moving to +0 counts as a move.
        let unchanged = (delay.bitPattern ^ s.delay.bitPattern) | (feedback.bitPattern ^ s.feedback.bitPattern)
            | (mix.bitPattern ^ s.mix.bitPattern) | (damping.bitPattern ^ s.damping.bitPattern)
        return unchanged == 0
    }

    /// The whole part of the delay (samples) `step` reads at with no modulation while settled.
    @inlinable @inline(__always)
    func settledWholeDelay(_ s: LoopState, _ k: BlockConstants) -> Int {
        let shortest: Float = 2  // minimumDelaySamples
        var delay = s.delay + 0 * k.sampleRate  // as `step` computes it with no modulation
        delay = delay > shortest ? delay : shortest
        delay = delay < k.longest ? delay : k.longest
        return Int(delay)
    }

    /// Frames `start..<end` with every parameter settled and no modulation (so the delay is one
    /// whole + fraction for all of them): the same arithmetic as `step`, four frames at a time.
    /// A run of at most `whole − 1` frames reads only samples written before it, so its four-tap
    /// reads are vector loads and only the loop filter stays a per-sample recursion. Runs stop at
    /// the ring's end; what is left (a short delay, a run across the wrap) goes through `step`.
    /// Returns the first frame not processed.
    @inlinable
    func processSettled(_ base: UnsafeMutablePointer<Float>, from start: Int, to end: Int,
                        _ s: inout LoopState, _ k: BlockConstants) -> Int {
        let shortest: Float = 2  // minimumDelaySamples
        var delay = s.delay + 0 * k.sampleRate  // as `step` computes it with no modulation
        delay = delay > shortest ? delay : shortest
        delay = delay < k.longest ? delay : k.longest
        let whole = Int(delay)
        let fraction = delay - Float(whole)
        let size = k.mask &+ 1
        let buffer = k.buffer
        let feedback = s.feedback, mix = s.mix, damping = s.damping
        var loop = s.loop
        var write = s.write
        var i = start
        while i < end {
            // Taps of frame j: the four samples from (write + j − whole − 2) on.
            let tapStart = (write &- whole &- 2) & k.mask
            var run = min(min(end &- i, whole &- 1), min(size &- tapStart &- 3, size &- write))
            run &= ~3
            if run <= 0 {
                base[i] = step(base[i], modulation: 0, &s, k)
                loop = s.loop
                write = s.write
                i &+= 1
                continue
            }
            let taps = UnsafeRawPointer(buffer + tapStart)
            let written = UnsafeMutableRawPointer(buffer + write)
            let io = UnsafeMutableRawPointer(base + i)
            var j = 0
            while j < run {
                let offset = j &* 4
                let d = taps.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                let c = taps.loadUnaligned(fromByteOffset: offset &+ 4, as: SIMD4<Float>.self)
                let b = taps.loadUnaligned(fromByteOffset: offset &+ 8, as: SIMD4<Float>.self)
                let a = taps.loadUnaligned(fromByteOffset: offset &+ 12, as: SIMD4<Float>.self)
                let delayed = HermiteInterpolation.interpolate(a, b, c, d, at: fraction)
                var loops = SIMD4<Float>()
                for lane in 0..<4 {
                    loop = DenormalGuard.flush(loop + damping * (delayed[lane] - loop))
                    loops[lane] = loop
                }
                let input = io.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
                written.storeBytes(of: DenormalGuard.flush(input + feedback * loops), toByteOffset: offset, as: SIMD4<Float>.self)
                io.storeBytes(of: input + mix * (delayed - input), toByteOffset: offset, as: SIMD4<Float>.self)
                j &+= 4
            }
            write = (write &+ run) & k.mask
            s.loop = loop
            s.write = write
            i &+= run
        }
        return i
    }

    /// Processes a block in place with a per-sample delay offset in seconds
    /// (`modulation.count` ≥ `buffer.count`), e.g. an LFO for chorus or vibrato.
    #if !DEBUG
    @_noAllocation @_noLocks
    #endif
    public func process(_ buffer: UnsafeMutableBufferPointer<Float>, modulation: UnsafeBufferPointer<Float>) {
        precondition(modulation.count >= buffer.count, "one modulation value per sample")
        guard let base = buffer.baseAddress, let offsets = modulation.baseAddress else { return }
        var s = loopState
        let k = blockConstants
        let guarded = guardedCount(buffer.count)
        if guarded > 0 {
            let fresh = freshWrites
            for i in 0..<guarded {
                base[i] = step(base[i], modulation: offsets[i], &s, k, guarded: true, fresh: fresh &+ i)
            }
            freshWrites = fresh &+ guarded
        }
        for i in guarded..<buffer.count {
            base[i] = step(base[i], modulation: offsets[i], &s, k)
        }
        loopState = s
    }

    func updateDelayTarget() {
        let samples = delayTimeSetting * sampleRate
        delaySamplesTarget = min(max(samples, DelayLine.minimumDelaySamples), max(DelayLine.minimumDelaySamples, Float(maximumDelay) * sampleRate))
    }

    func updateDampingTarget() {
        let bypassed = dampingCutoffSetting >= 20_000 || dampingCutoffSetting >= 0.49 * sampleRate
        dampingTarget = bypassed ? 1 : 1 - exp(-2 * Float.pi * dampingCutoffSetting / sampleRate)
    }

    func updateSmoothing() {
        delaySmoothingCoefficient = delayTimeSmoothing > 0 ? 1 - exp(-1 / (delayTimeSmoothing * sampleRate)) : 1
        parameterSmoothingCoefficient = 1 - exp(-1 / (0.01 * sampleRate))
    }
}
