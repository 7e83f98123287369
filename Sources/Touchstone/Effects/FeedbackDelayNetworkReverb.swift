import Foundation

/// A stereo feedback-delay-network reverb (Jot & Chaigne 1991) with input diffusion.
///
/// Structure, per sample:
/// 1. Input diffusion: left and right each pass four Schroeder allpasses (gain
///    `diffusion`, fixed 3.6–12.7 ms lengths, different per side), which smear
///    the onset into a dense cloud before it enters the network.
/// 2. Eight delay lines of mutually prime lengths dᵢ (distinct primes near
///    31…74 ms × `size`) feed back through an 8×8 normalised Hadamard matrix
///    (orthogonal, so the loop itself is lossless) computed as a fast
///    Walsh–Hadamard transform (24 additions).
/// 3. Each line is attenuated by gᵢ = 10^(−3·dᵢ / (T60·fs)): every line loses
///    60 dB per `decayTime` seconds, so all modes of the network decay at the
///    same rate and the measured RT60 equals `decayTime` (at zero damping).
/// 4. Damping: each line has a one-pole low-pass H(z) = (1−pᵢ)/(1 − pᵢ z⁻¹)
///    (unity gain at DC) whose Nyquist gain is set per line to
///    10^(−3·dᵢ/fs·(1/T60_HF − 1/T60)), with T60_HF = T60·(1 − 0.95·damping).
///    So the low-frequency RT60 stays `decayTime`, the RT60 at Nyquist is
///    `decayTime`·(1 − 0.95·`damping`) (damping 1 → 5 % of it), and in between it
///    follows the one-pole curve; because pᵢ scales with dᵢ, all lines agree
///    (Jot's absorbent filters). At `damping` 0 the filters are bypassed (pᵢ = 0).
/// 5. Stereo output from two orthogonal ±1 tap vectors over the eight line
///    outputs (decorrelated left and right), scaled by 1/√8, cross-faded with the
///    dry signal by `mix`.
///
/// Parameters and ranges:
/// - `decayTime`: RT60 in seconds, 0.1…30. Smoothed (50 ms), gains refreshed every 32 samples.
/// - `size`: delay-length scale, 0.25…4 (1 ≈ a medium room, lines 31…74 ms).
///   Applied immediately; meant for preset changes (the tail may click when it changes).
/// - `damping`: 0…1, high-frequency decay as above. Smoothed like `decayTime`.
/// - `diffusion`: input allpass gain, 0…0.75. Applied immediately.
/// - `mix`: 0 (dry) … 1 (wet only). Smoothed per sample (10 ms).
///
/// Buffers for the largest size are allocated and zeroed in `prepare`. Output never denormal
/// (loop state is flushed). A NaN input circulates until `reset()`.
///
/// `reset()` is O(1) and safe on the audio thread: it does not clear the delay memory (up to
/// 8 × 16 384 floats, 512 KiB at 48 kHz). It restarts a step count instead, and until every
/// line has been written once since the reset, a read of a step from before the reset yields 0
/// (what a cleared line would hold). The output is the same, sample for sample, as after a full
/// clear; the guarded reads cost a little more for one line capacity (≈ 0.34 s at 48 kHz).
///
/// Thread confinement: use an instance from one thread at a time (the audio
/// thread, or setup code before it starts). Its stored properties are
/// `@exclusivity(unchecked)`, dropping the per-access dynamic exclusivity checks
/// a class would otherwise pay in the per-sample loop.
public final class FeedbackDelayNetworkReverb: StereoProcessor {
    /// Number of delay lines in the network.
    @inlinable public static var lineCount: Int { 8 }
    /// Line lengths at `size` 1, in milliseconds (rounded to distinct primes in samples).
    public static let baseLineLengthsMilliseconds: [Double] = [31.1, 37.3, 41.9, 47.7, 53.1, 59.3, 67.9, 73.7]
    /// Input allpass lengths in milliseconds, left then right.
    static let diffuserLengthsMilliseconds: [Double] = [4.77, 3.59, 12.7, 9.31, 4.93, 3.79, 12.1, 9.73]
    /// Largest `size`.
    public static let maximumSize: Float = 4
    @inlinable static var gainUpdateInterval: Int { 32 }

    @exclusivity(unchecked) @usableFromInline var sampleRate: Float = 48_000
    // Delay lines, interleaved: time step t of line i is at lines[8·(t mod capacity) + i],
    // so writing one step of all eight lines is a single SIMD8 store. Positions are
    // kept in floats (8 per step), so a read is one subtraction and one mask.
    @exclusivity(unchecked) @usableFromInline var lines: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var lineCapacity = 1
    @exclusivity(unchecked) @usableFromInline var lineFloatMask = 7  // 8 · lineCapacity − 1
    @exclusivity(unchecked) @usableFromInline var lineWritePosition = 0  // in floats, a multiple of 8
    // Steps written since the last reset, counted up to `lineCapacity` (from there on every
    // line and diffuser slot holds post-reset data and reads need no guard).
    @exclusivity(unchecked) @usableFromInline var freshSteps = 0
    // Per-line parameters and state, one lane per line. Stored by value (not behind a
    // pointer that might alias the line memory), so they stay in registers.
    @usableFromInline let lengths: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) @usableFromInline var gains = SIMD8<Float>(repeating: 0)
    @exclusivity(unchecked) @usableFromInline var dampingPoles = SIMD8<Float>(repeating: 0)
    @exclusivity(unchecked) @usableFromInline var dampingStates = SIMD8<Float>(repeating: 0)
    // Read offsets: 0…7 the lines in floats (8·dᵢ − i), 8…15 the diffusers in steps (nₖ).
    @usableFromInline let readOffsets: UnsafeMutablePointer<Int>
    // Input diffusers: 8 allpass rings (4 left, 4 right) of diffuserCapacity steps each (a power of two
    // above the longest), one after the other (ring k's step t at diffusers[k·capacity + t mod capacity]),
    // sharing one write position in steps. Each ring's steps are contiguous, so `process` runs each allpass
    // over four consecutive samples at once (every ring is far longer than four steps).
    @exclusivity(unchecked) @usableFromInline var diffusers: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var diffuserCapacity = 1
    @exclusivity(unchecked) @usableFromInline var diffuserWritePosition = 0  // in steps
    @usableFromInline let diffuserLengths: UnsafeMutablePointer<Int>
    /// Where each of the 16 reads (lines 0…7, then diffusers 0…7) starts in the current span of `process`,
    /// a stretch in which no read or write position wraps.
    @usableFromInline let spanReads: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Both sides' diffused input for one span (at most one gain interval), left then right.
    @usableFromInline let diffused: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var diffusionGain: Float = 0.6

    @exclusivity(unchecked) @usableFromInline var decayRateTarget: Float = 0.5  // 1 / T60
    @exclusivity(unchecked) @usableFromInline var decayRate: Float = 0.5
    @exclusivity(unchecked) @usableFromInline var dampingAmountTarget: Float = 0
    @exclusivity(unchecked) @usableFromInline var dampingAmount: Float = 0
    @exclusivity(unchecked) @usableFromInline var controlSmoothingCoefficient: Float = 1  // per gain update
    @exclusivity(unchecked) @usableFromInline var samplesUntilGainUpdate = 0
    @exclusivity(unchecked) @usableFromInline var mixTarget: Float = 0.3
    @exclusivity(unchecked) @usableFromInline var mixValue: Float = 0.3
    @exclusivity(unchecked) @usableFromInline var mixSmoothingCoefficient: Float = 1

    @exclusivity(unchecked) var sizeSetting: Float = 1

    /// Creates a reverb with RT60 `decayTime` s (0.1…30), `size` (0.25…4),
    /// `damping` (0…1) and `mix` (0…1).
    public init(decayTime: Float = 2, size: Float = 1, damping: Float = 0.3, mix: Float = 0.3) {
        let count = FeedbackDelayNetworkReverb.lineCount
        // Until `prepare`: one step of each ring, every length 1 sample.
        lines = UnsafeMutablePointer<Float>.allocate(capacity: count)
        lines.initialize(repeating: 0, count: count)
        lengths = UnsafeMutablePointer<Int>.allocate(capacity: count)
        lengths.initialize(repeating: 1, count: count)
        readOffsets = UnsafeMutablePointer<Int>.allocate(capacity: 2 * count)
        for i in 0..<(2 * count) { (readOffsets + i).initialize(to: count - i % count) }
        diffusers = UnsafeMutablePointer<Float>.allocate(capacity: count)
        diffusers.initialize(repeating: 0, count: count)
        diffuserLengths = UnsafeMutablePointer<Int>.allocate(capacity: count)
        diffuserLengths.initialize(repeating: 1, count: count)
        spanReads = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 2 * count)
        spanReads.initialize(repeating: lines, count: 2 * count)
        diffused = UnsafeMutablePointer<Float>.allocate(capacity: 2 * FeedbackDelayNetworkReverb.gainUpdateInterval)
        diffused.initialize(repeating: 0, count: 2 * FeedbackDelayNetworkReverb.gainUpdateInterval)
        self.decayTime = decayTime
        self.damping = damping
        self.mix = mix
        sizeSetting = min(max(size, 0.25), FeedbackDelayNetworkReverb.maximumSize)
    }

    deinit {
        lines.deallocate()
        lengths.deallocate()
        readOffsets.deallocate()
        diffusers.deallocate()
        diffuserLengths.deallocate()
        spanReads.deallocate()
        diffused.deallocate()
    }

    /// RT60 in seconds, 0.1…30 (clamped). Smoothed.
    public var decayTime: Float {
        get { 1 / decayRateTarget }
        set { decayRateTarget = 1 / (newValue.clamped(to: 0.1...30, nonFinite: 2)) }
    }

    /// High-frequency damping, 0 (none) … 1 (Nyquist RT60 = 5 % of `decayTime`). Smoothed.
    public var damping: Float {
        get { dampingAmountTarget }
        set { dampingAmountTarget = newValue.clamped(to: 0...1, nonFinite: 0) }
    }

    /// Dry/wet, 0 (dry) … 1 (wet only) (clamped). Smoothed.
    public var mix: Float {
        get { mixTarget }
        set { mixTarget = newValue.clamped(to: 0...1, nonFinite: 0) }
    }

    /// Delay-length scale, 0.25…4 (clamped). Applied immediately (no allocation,
    /// bounded prime search); changing it under a sounding tail may click.
    public var size: Float {
        get { sizeSetting }
        set {
            sizeSetting = newValue.clamped(to: 0.25...FeedbackDelayNetworkReverb.maximumSize, nonFinite: 1)
            updateLengths()
            updateGains()
        }
    }

    /// Input allpass gain, 0…0.75 (clamped). 0 disables diffusion.
    public var diffusion: Float {
        get { diffusionGain }
        set { diffusionGain = newValue.clamped(to: 0...0.75, nonFinite: 0.6) }
    }

    /// The current line lengths in samples (distinct primes), for tests and display.
    public var lineLengths: [Int] { (0..<FeedbackDelayNetworkReverb.lineCount).map { lengths[$0] } }

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        let count = FeedbackDelayNetworkReverb.lineCount
        let longest = Int(FeedbackDelayNetworkReverb.baseLineLengthsMilliseconds.max()! * Double(FeedbackDelayNetworkReverb.maximumSize) * spec.sampleRate / 1000) + 64
        var capacity = 2
        while capacity < longest { capacity <<= 1 }
        lines.deallocate()
        lines = UnsafeMutablePointer<Float>.allocate(capacity: capacity * count)
        lineCapacity = capacity
        lineFloatMask = capacity * count - 1

        let diffuserSamples = FeedbackDelayNetworkReverb.diffuserLengthsMilliseconds.map { max(1, Int(($0 * spec.sampleRate / 1000).rounded())) }
        var ringSize = 2
        while ringSize <= diffuserSamples.max()! { ringSize <<= 1 }
        diffuserCapacity = ringSize
        diffusers.deallocate()
        diffusers = UnsafeMutablePointer<Float>.allocate(capacity: ringSize * count)
        for k in 0..<count {
            diffuserLengths[k] = diffuserSamples[k]
            readOffsets[count + k] = diffuserSamples[k]
        }

        // Decay and damping ease over ≈50 ms, updated once per gain interval.
        controlSmoothingCoefficient = 1 - Foundation.exp(-Float(FeedbackDelayNetworkReverb.gainUpdateInterval) / (0.05 * sampleRate))
        mixSmoothingCoefficient = 1 - Foundation.exp(-1 / (0.01 * sampleRate))
        updateLengths()
        // Zeroed here, off the audio thread, so every page is touched before the first period.
        lines.initialize(repeating: 0, count: lineCapacity * count)
        diffusers.initialize(repeating: 0, count: diffuserCapacity * count)
        reset()
    }

    /// Silences the tail and jumps smoothed parameters to their targets. O(1): no allocation and
    /// no clearing of the delay memory (reads of steps from before the reset yield 0 until each
    /// line has been rewritten; see the type's note), so it is safe on the audio thread.
    public func reset() {
        freshSteps = 0
        dampingStates = SIMD8(repeating: 0)
        lineWritePosition = 0
        diffuserWritePosition = 0
        decayRate = decayRateTarget
        dampingAmount = dampingAmountTarget
        mixValue = mixTarget
        samplesUntilGainUpdate = 0
        updateGains()
    }

    /// Smoothing of decay and damping, once per gain interval (not on the per-sample path).
    @usableFromInline func advanceControl() {
        samplesUntilGainUpdate = 32  // gainUpdateInterval
        // No `||`: its autoclosure would retain self on the audio thread.
        let decaySettled = decayRate == decayRateTarget
        let dampingSettled = dampingAmount == dampingAmountTarget
        if !(decaySettled && dampingSettled) {
            decayRate += controlSmoothingCoefficient * (decayRateTarget - decayRate)
            dampingAmount += controlSmoothingCoefficient * (dampingAmountTarget - dampingAmount)
            if abs(decayRate - decayRateTarget) < 1e-5 * decayRateTarget { decayRate = decayRateTarget }
            if abs(dampingAmount - dampingAmountTarget) < 1e-5 { dampingAmount = dampingAmountTarget }
            updateGains()
        }
    }

    /// One frame of the network on values the caller holds in locals (so nothing is
    /// reloaded after the stores into line memory). Returns the wet pair, each the
    /// ±1 tap sum times 1/√8.
    @inlinable @inline(__always)
    func wetFrame(
        left: Float, right: Float,
        lines: UnsafeMutablePointer<Float>, lineFloatMask: Int, lineWrite: inout Int,
        diffusers: UnsafeMutablePointer<Float>, diffuserCapacity: Int, diffuserWrite: inout Int,
        readOffsets: UnsafeMutablePointer<Int>, diffusion g: Float,
        gains: SIMD8<Float>, poles: SIMD8<Float>, states: inout SIMD8<Float>,
        guarded: Bool = false, step: Int = 0
    ) -> (left: Float, right: Float) {
        // `guarded` (a constant at every call site, so the fast path keeps no test): `step` steps
        // were written since the reset, and a read reaching back before the reset yields 0.
        // Input diffusion: four Schroeder allpasses per side, in series (left k = 0…3,
        // right k = 4…7); ring k reads the value written nₖ steps ago.
        let dw = diffuserWrite, mask = diffuserCapacity &- 1
        var x = left
        var y = right
        for j in 0..<4 {
            let ringLeft = diffusers + j &* diffuserCapacity, ringRight = diffusers + (4 &+ j) &* diffuserCapacity
            var delayedLeft = ringLeft[(dw &- readOffsets[8 &+ j]) & mask]
            var delayedRight = ringRight[(dw &- readOffsets[12 &+ j]) & mask]
            if guarded {
                if step < diffuserLengths[j] { delayedLeft = 0 }
                if step < diffuserLengths[4 &+ j] { delayedRight = 0 }
            }
            let vLeft = allpassInput(x, delayed: delayedLeft, gain: g)
            let vRight = allpassInput(y, delayed: delayedRight, gain: g)
            ringLeft[dw] = vLeft
            ringRight[dw] = vRight
            x = delayedLeft - g * vLeft
            y = delayedRight - g * vRight
        }
        diffuserWrite = (dw &+ 1) & mask

        // Line outputs (eight reads at their own delays), as lines 0…3 and 4…7.
        let w = lineWrite
        var low = SIMD4<Float>(
            lines[(w &- readOffsets[0]) & lineFloatMask], lines[(w &- readOffsets[1]) & lineFloatMask],
            lines[(w &- readOffsets[2]) & lineFloatMask], lines[(w &- readOffsets[3]) & lineFloatMask])
        var high = SIMD4<Float>(
            lines[(w &- readOffsets[4]) & lineFloatMask], lines[(w &- readOffsets[5]) & lineFloatMask],
            lines[(w &- readOffsets[6]) & lineFloatMask], lines[(w &- readOffsets[7]) & lineFloatMask])
        if guarded {
            for i in 0..<4 {
                if step < lengths[i] { low[i] = 0 }
                if step < lengths[4 &+ i] { high[i] = 0 }
            }
        }
        let (written, wet) = network(low: low, high: high, x: x, y: y, gains: gains, poles: poles, states: &states)
        let slot = UnsafeMutableRawPointer(lines + w)
        slot.storeBytes(of: written.low, as: SIMD4<Float>.self)
        slot.storeBytes(of: written.high, toByteOffset: 16, as: SIMD4<Float>.self)
        lineWrite = (w &+ 8) & lineFloatMask
        return wet
    }

    /// One Schroeder allpass's new ring value: x + g·delayed, flushed.
    @inlinable @inline(__always)
    func allpassInput(_ x: Float, delayed: Float, gain g: Float) -> Float {
        DenormalGuard.flush(x + g * delayed)
    }

    /// The network on one frame's line outputs (lines 0…3 in `low`, 4…7 in `high`) and diffused input `x`, `y`:
    /// the values to write into the lines, and the wet pair (each the ±1 tap sum times 1/√8).
    @inlinable @inline(__always)
    func network(low: SIMD4<Float>, high: SIMD4<Float>, x: Float, y: Float,
                        gains: SIMD8<Float>, poles: SIMD8<Float>, states: inout SIMD8<Float>)
        -> (written: (low: SIMD4<Float>, high: SIMD4<Float>), wet: (left: Float, right: Float)) {
        // Orthogonal ±1 taps: left (+ + − − + + − −), right (+ − + − − + − +);
        // both repeat (left) or negate (right) across the halves.
        let halvesSum = low + high
        let halvesDifference = low - high
        let wetLeft = (halvesSum[0] + halvesSum[1]) - (halvesSum[2] + halvesSum[3])
        let wetRight = (halvesDifference[0] - halvesDifference[1]) + (halvesDifference[2] - halvesDifference[3])

        // Absorbent one-poles (unity DC gain), decay gains, Hadamard feedback.
        let filteredLow = DenormalGuard.flush(low + poles.lowHalf * (states.lowHalf - low))
        let filteredHigh = DenormalGuard.flush(high + poles.highHalf * (states.highHalf - high))
        states = SIMD8(lowHalf: filteredLow, highHalf: filteredHigh)
        let mixed = WalshHadamard.transform(low: gains.lowHalf * filteredLow, high: gains.highHalf * filteredHigh)
        // Normalise (1/√8 makes the matrix orthogonal) and inject the input:
        // left into even lines, right into odd lines.
        let injected = SIMD4<Float>(x, y, x, y)
        let normalisation: Float = 0.353_553_39
        let writtenLow = DenormalGuard.flush(mixed.low * normalisation + injected)
        let writtenHigh = DenormalGuard.flush(mixed.high * normalisation + injected)
        let wetScale: Float = 0.353_553_39
        return ((writtenLow, writtenHigh), (wetLeft * wetScale, wetRight * wetScale))
    }

    /// The network's part of `wetFrame` (unguarded) inside a span where no line position wraps, on input the
    /// diffusers already diffused (`diffuse`): frame `offset` (0, 8, 16… floats into the span) reads
    /// `reads[i] + offset` and writes at `lineSlot + offset`, the addresses `wetFrame`'s masked indices give
    /// there, so the same values in the same order: one load per read instead of an index computed from the
    /// write position, the read offset and the mask.
    @inlinable @inline(__always)
    func networkFrameInSpan(
        x: Float, y: Float, offset: Int, reads: UnsafeMutablePointer<UnsafeMutablePointer<Float>>,
        lineSlot: UnsafeMutablePointer<Float>, gains: SIMD8<Float>, poles: SIMD8<Float>, states: inout SIMD8<Float>
    ) -> (left: Float, right: Float) {
        let low = SIMD4<Float>(reads[0][offset], reads[1][offset], reads[2][offset], reads[3][offset])
        let high = SIMD4<Float>(reads[4][offset], reads[5][offset], reads[6][offset], reads[7][offset])
        let (written, wet) = network(low: low, high: high, x: x, y: y, gains: gains, poles: poles, states: &states)
        let slot = UnsafeMutableRawPointer(lineSlot + offset)
        slot.storeBytes(of: written.low, as: SIMD4<Float>.self)
        slot.storeBytes(of: written.high, toByteOffset: 16, as: SIMD4<Float>.self)
        return wet
    }

    /// One side's four allpasses in series over `count` samples of a span in which no diffuser position wraps:
    /// `input` diffused into `output`; ring `first + j` reads from `reads[8 + first + j]` and writes at
    /// `write + (first + j)·capacity`. Each allpass runs over four consecutive samples at once: its ring is longer
    /// than a span, so none of them reads what another writes here, and each sample gets `wetFrame`'s operations
    /// in `wetFrame`'s order (the same bits), four lanes wide.
    @inlinable @inline(__always)
    func diffuse(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int, rings first: Int,
                 reads: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, write: UnsafeMutablePointer<Float>,
                 capacity: Int, diffusion g: Float) {
        for j in 0..<4 {
            let read = reads[8 &+ first &+ j], ring = write + (first &+ j) &* capacity
            // The first allpass takes the input, the others the previous one's output.
            let source = j == 0 ? input : UnsafePointer(output)
            var k = 0
            while k &+ 4 <= count {
                let delayed = UnsafeRawPointer(read + k).loadUnaligned(as: SIMD4<Float>.self)
                let x = UnsafeRawPointer(source + k).loadUnaligned(as: SIMD4<Float>.self)
                let v = DenormalGuard.flush(x + g * delayed)
                UnsafeMutableRawPointer(ring + k).storeBytes(of: v, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(output + k).storeBytes(of: delayed - g * v, as: SIMD4<Float>.self)
                k &+= 4
            }
            while k < count {
                let delayed = read[k]
                let v = allpassInput(source[k], delayed: delayed, gain: g)
                ring[k] = v
                output[k] = delayed - g * v
                k &+= 1
            }
        }
    }

    /// Processes one stereo frame (linear amplitude).
    @inlinable @inline(__always)
    public func processFrame(left: Float, right: Float) -> (left: Float, right: Float) {
        if samplesUntilGainUpdate == 0 { advanceControl() }
        samplesUntilGainUpdate &-= 1
        let mix = mixValue + mixSmoothingCoefficient * (mixTarget - mixValue)
        mixValue = mix
        var lineWrite = lineWritePosition
        var diffuserWrite = diffuserWritePosition
        var states = dampingStates
        let wet: (left: Float, right: Float)
        if freshSteps < lineCapacity {
            wet = wetFrame(
                left: left, right: right,
                lines: lines, lineFloatMask: lineFloatMask, lineWrite: &lineWrite,
                diffusers: diffusers, diffuserCapacity: diffuserCapacity, diffuserWrite: &diffuserWrite,
                readOffsets: readOffsets, diffusion: diffusionGain,
                gains: gains, poles: dampingPoles, states: &states, guarded: true, step: freshSteps)
            freshSteps &+= 1
        } else {
            wet = wetFrame(
                left: left, right: right,
                lines: lines, lineFloatMask: lineFloatMask, lineWrite: &lineWrite,
                diffusers: diffusers, diffuserCapacity: diffuserCapacity, diffuserWrite: &diffuserWrite,
                readOffsets: readOffsets, diffusion: diffusionGain,
                gains: gains, poles: dampingPoles, states: &states)
        }
        lineWritePosition = lineWrite
        diffuserWritePosition = diffuserWrite
        dampingStates = states
        let outLeft = left + mix * (wet.left - left)
        let outRight = right + mix * (wet.right - right)
        return (outLeft, outRight)
    }

    /// Processes two channel buffers in place (equal length, at most the prepared block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        precondition(left.count == right.count, "stereo buffers must have the same length")
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return }
        let count = left.count
        // The per-sample state lives in locals for the whole block.
        let lines = self.lines, lineFloatMask = self.lineFloatMask
        let diffusers = self.diffusers, diffuserCapacity = self.diffuserCapacity
        let readOffsets = self.readOffsets, g = diffusionGain
        let diffusedLeft = diffused, diffusedRight = diffused + 32  // gainUpdateInterval
        let mixTarget = self.mixTarget, mixCoefficient = mixSmoothingCoefficient
        var lineWrite = lineWritePosition
        var diffuserWrite = diffuserWritePosition
        var states = dampingStates
        var mix = mixValue
        var n = 0
        while n < count {
            if samplesUntilGainUpdate == 0 { advanceControl() }
            var run = min(samplesUntilGainUpdate, count &- n)
            if freshSteps < lineCapacity {
                // Reads reach back `lengths[7]` steps at most (the lines grow with their index; every diffuser is
                // shorter than the shortest line): from there on no guarded read yields 0, and the steady loop gives
                // the same output. The count goes on to one line capacity, so a larger `size` set later is guarded.
                if freshSteps < lengths[7] {
                    // Shortly after a reset: the same run with guarded reads (see the type's note), in a
                    // function of its own, so this loop keeps one inlined frame (with both loops here, the optimiser
                    // inlined the guarded frame and left the steady-state one an out-of-line call, measured under callgrind).
                    run = min(run, lengths[7] &- freshSteps)
                    samplesUntilGainUpdate &-= run
                    mix = processGuarded(left: leftBase + n, right: rightBase + n, count: run, mix: mix,
                                         lineWrite: &lineWrite, diffuserWrite: &diffuserWrite, states: &states)
                    n &+= run
                    continue
                }
                freshSteps = min(lineCapacity, freshSteps &+ run)
            }
            samplesUntilGainUpdate &-= run
            let gains = self.gains, poles = dampingPoles
            let end = n &+ run
            while n < end {
                // A span in which no read or write position wraps: at most the frames left before the write
                // positions or any of the 16 reads reach the end of their ring (a line position is a step's
                // float 0…7, so a step's first float tells how many steps are left; diffuser positions are steps).
                // (Two-argument `min`s: the variadic one builds an array.)
                var span = min(min(end &- n, (lineFloatMask &+ 1 &- lineWrite) &>> 3), diffuserCapacity &- diffuserWrite)
                for t in 0..<8 {
                    let line = (lineWrite &- readOffsets[t]) & lineFloatMask
                    let diffuser = (diffuserWrite &- readOffsets[8 &+ t]) & (diffuserCapacity &- 1)
                    span = min(min(span, (lineFloatMask &+ 1 &- (line & ~7)) &>> 3), diffuserCapacity &- diffuser)
                    spanReads[t] = lines + line
                    spanReads[8 &+ t] = diffusers + (t &* diffuserCapacity &+ diffuser)
                }
                let reads = spanReads, lineSlot = lines + lineWrite, diffuserSlot = diffusers + diffuserWrite
                // The input diffusion of the whole span first, each allpass four samples at a time; then the
                // network sample by sample (its feedback is per sample, across the eight lines).
                diffuse(leftBase + n, into: diffusedLeft, count: span, rings: 0, reads: reads, write: diffuserSlot,
                        capacity: diffuserCapacity, diffusion: g)
                diffuse(rightBase + n, into: diffusedRight, count: span, rings: 4, reads: reads, write: diffuserSlot,
                        capacity: diffuserCapacity, diffusion: g)
                for k in 0..<span {
                    let i = n &+ k
                    let inLeft = leftBase[i], inRight = rightBase[i]
                    mix += mixCoefficient * (mixTarget - mix)
                    let wet = networkFrameInSpan(
                        x: diffusedLeft[k], y: diffusedRight[k], offset: k &<< 3, reads: reads,
                        lineSlot: lineSlot, gains: gains, poles: poles, states: &states)
                    leftBase[i] = inLeft + mix * (wet.left - inLeft)
                    rightBase[i] = inRight + mix * (wet.right - inRight)
                }
                lineWrite = (lineWrite &+ (span &<< 3)) & lineFloatMask
                diffuserWrite = (diffuserWrite &+ span) & (diffuserCapacity &- 1)
                n &+= span
            }
        }
        lineWritePosition = lineWrite
        diffuserWritePosition = diffuserWrite
        dampingStates = states
        mixValue = mix
    }

    /// `count` frames with guarded reads (fewer than one line capacity since the reset), on the caller's
    /// block state; returns the smoothed mix. Kept out of line on purpose (see `process`).
    @inline(never)
    func processGuarded(left leftBase: UnsafeMutablePointer<Float>, right rightBase: UnsafeMutablePointer<Float>,
                        count: Int, mix startMix: Float,
                        lineWrite: inout Int, diffuserWrite: inout Int, states: inout SIMD8<Float>) -> Float {
        let lines = self.lines, lineFloatMask = self.lineFloatMask
        let diffusers = self.diffusers, diffuserCapacity = self.diffuserCapacity
        let readOffsets = self.readOffsets, g = diffusionGain
        let mixTarget = self.mixTarget, mixCoefficient = mixSmoothingCoefficient
        let gains = self.gains, poles = dampingPoles
        let fresh = freshSteps
        var mix = startMix
        for i in 0..<count {
            let inLeft = leftBase[i], inRight = rightBase[i]
            mix += mixCoefficient * (mixTarget - mix)
            let wet = wetFrame(
                left: inLeft, right: inRight,
                lines: lines, lineFloatMask: lineFloatMask, lineWrite: &lineWrite,
                diffusers: diffusers, diffuserCapacity: diffuserCapacity, diffuserWrite: &diffuserWrite,
                readOffsets: readOffsets, diffusion: g,
                gains: gains, poles: poles, states: &states, guarded: true, step: fresh &+ i)
            leftBase[i] = inLeft + mix * (wet.left - inLeft)
            rightBase[i] = inRight + mix * (wet.right - inRight)
        }
        freshSteps = fresh &+ count
        return mix
    }

    /// Distinct primes near the base lengths × size, strictly increasing.
    func updateLengths() {
        var previous = 1
        for i in 0..<FeedbackDelayNetworkReverb.lineCount {
            let ideal = Int((FeedbackDelayNetworkReverb.baseLineLengthsMilliseconds[i] * Double(sizeSetting) * Double(sampleRate) / 1000).rounded())
            var candidate = max(ideal, previous + 1, 2)
            while !FeedbackDelayNetworkReverb.isPrime(candidate) { candidate += 1 }
            lengths[i] = min(candidate, lineCapacity - 1)
            readOffsets[i] = FeedbackDelayNetworkReverb.lineCount * lengths[i] - i
            previous = candidate
        }
    }

    static func isPrime(_ n: Int) -> Bool {
        if n < 2 { return false }
        if n % 2 == 0 { return n == 2 }
        var divisor = 3
        while divisor * divisor <= n {
            if n % divisor == 0 { return false }
            divisor += 2
        }
        return true
    }

    /// gᵢ = 10^(−3·dᵢ·rate/fs) and the damping poles, from the smoothed decay and damping.
    @usableFromInline func updateGains() {
        let highFrequencyRatio = 1 - 0.95 * dampingAmount
        let log2Of10: Float = 3.321_928_1
        for i in 0..<8 {  // lineCount
            let secondsPerPass = Float(lengths[i]) / sampleRate
            // log10 of the DC gain per pass: −3·d/(T60·fs).
            let decibelsOverTwenty = -3 * secondsPerPass * decayRate
            gains[i] = FastElementary.exp2(decibelsOverTwenty * log2Of10)
            // Extra attenuation at Nyquist relative to DC, as a gain ratio r.
            let extra = decibelsOverTwenty * (1 / highFrequencyRatio - 1)
            let ratio = FastElementary.exp2(extra * log2Of10)
            dampingPoles[i] = (1 - ratio) / (1 + ratio)
        }
    }
}
