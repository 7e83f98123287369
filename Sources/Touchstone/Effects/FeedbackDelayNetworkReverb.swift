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
/// Buffers for the largest size are allocated in `prepare`. Output never denormal
/// (loop state is flushed). A NaN input circulates until `reset()`.
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
    // Delay lines: lineCount rings of lineCapacity samples, back to back.
    @exclusivity(unchecked) @usableFromInline var lines: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var lineCapacity = 1
    @exclusivity(unchecked) @usableFromInline var lineMask = 0
    @exclusivity(unchecked) @usableFromInline var writeIndex = 0
    // Per-line parameters and state (lineCount each).
    @usableFromInline let lengths: UnsafeMutablePointer<Int>
    @usableFromInline let gains: UnsafeMutablePointer<Float>
    @usableFromInline let dampingPoles: UnsafeMutablePointer<Float>
    @usableFromInline let dampingStates: UnsafeMutablePointer<Float>
    @usableFromInline let scratch: UnsafeMutablePointer<Float>
    // Input diffusers: 8 allpass rings (4 left, 4 right), each diffuserCapacity long.
    @exclusivity(unchecked) @usableFromInline var diffusers: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) @usableFromInline var diffuserCapacity = 1
    @usableFromInline let diffuserLengths: UnsafeMutablePointer<Int>
    @usableFromInline let diffuserIndices: UnsafeMutablePointer<Int>
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
        lines = UnsafeMutablePointer<Float>.allocate(capacity: count)
        lines.initialize(repeating: 0, count: count)
        lengths = UnsafeMutablePointer<Int>.allocate(capacity: count)
        lengths.initialize(repeating: 1, count: count)
        gains = UnsafeMutablePointer<Float>.allocate(capacity: count)
        gains.initialize(repeating: 0, count: count)
        dampingPoles = UnsafeMutablePointer<Float>.allocate(capacity: count)
        dampingPoles.initialize(repeating: 0, count: count)
        dampingStates = UnsafeMutablePointer<Float>.allocate(capacity: count)
        dampingStates.initialize(repeating: 0, count: count)
        scratch = UnsafeMutablePointer<Float>.allocate(capacity: count)
        scratch.initialize(repeating: 0, count: count)
        diffusers = UnsafeMutablePointer<Float>.allocate(capacity: count)
        diffusers.initialize(repeating: 0, count: count)
        diffuserLengths = UnsafeMutablePointer<Int>.allocate(capacity: count)
        diffuserLengths.initialize(repeating: 1, count: count)
        diffuserIndices = UnsafeMutablePointer<Int>.allocate(capacity: count)
        diffuserIndices.initialize(repeating: 0, count: count)
        self.decayTime = decayTime
        self.damping = damping
        self.mix = mix
        sizeSetting = min(max(size, 0.25), FeedbackDelayNetworkReverb.maximumSize)
    }

    deinit {
        lines.deallocate()
        lengths.deallocate()
        gains.deallocate()
        dampingPoles.deallocate()
        dampingStates.deallocate()
        scratch.deallocate()
        diffusers.deallocate()
        diffuserLengths.deallocate()
        diffuserIndices.deallocate()
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
        lineMask = capacity - 1

        let diffuserSamples = FeedbackDelayNetworkReverb.diffuserLengthsMilliseconds.map { max(1, Int(($0 * spec.sampleRate / 1000).rounded())) }
        diffuserCapacity = diffuserSamples.max()!
        diffusers.deallocate()
        diffusers = UnsafeMutablePointer<Float>.allocate(capacity: diffuserCapacity * count)
        for i in 0..<count { diffuserLengths[i] = diffuserSamples[i] }

        // Decay and damping ease over ≈50 ms, updated once per gain interval.
        controlSmoothingCoefficient = 1 - Foundation.exp(-Float(FeedbackDelayNetworkReverb.gainUpdateInterval) / (0.05 * sampleRate))
        mixSmoothingCoefficient = 1 - Foundation.exp(-1 / (0.01 * sampleRate))
        updateLengths()
        reset()
    }

    /// Silences the tail and jumps smoothed parameters to their targets. No allocation.
    public func reset() {
        lines.update(repeating: 0, count: lineCapacity * FeedbackDelayNetworkReverb.lineCount)
        diffusers.update(repeating: 0, count: diffuserCapacity * FeedbackDelayNetworkReverb.lineCount)
        dampingStates.update(repeating: 0, count: FeedbackDelayNetworkReverb.lineCount)
        diffuserIndices.update(repeating: 0, count: FeedbackDelayNetworkReverb.lineCount)
        writeIndex = 0
        decayRate = decayRateTarget
        dampingAmount = dampingAmountTarget
        mixValue = mixTarget
        samplesUntilGainUpdate = 0
        updateGains()
    }

    /// Processes one stereo frame (linear amplitude).
    @inlinable @inline(__always)
    public func processFrame(left: Float, right: Float) -> (left: Float, right: Float) {
        if samplesUntilGainUpdate == 0 {
            samplesUntilGainUpdate = 32  // gainUpdateInterval; a type reference would touch class metadata
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
        samplesUntilGainUpdate &-= 1
        mixValue += mixSmoothingCoefficient * (mixTarget - mixValue)

        let diffusedLeft = diffuse(left, first: 0)
        let diffusedRight = diffuse(right, first: 4)

        // Read the line outputs; taps for the stereo output.
        let s = scratch
        let write = writeIndex
        var wetLeft: Float = 0
        var wetRight: Float = 0
        for i in 0..<8 {
            let output = lines[i &* lineCapacity &+ ((write &- lengths[i]) & lineMask)]
            // Orthogonal ±1 patterns: left (+ + − − + + − −), right (+ − + − − + − +).
            wetLeft += (i & 2 == 0) ? output : -output
            wetRight += ((i & 1) ^ ((i >> 2) & 1)) == 0 ? output : -output
            // Absorbent one-pole (unity DC gain), then the decay gain.
            let pole = dampingPoles[i]
            let filtered = DenormalGuard.flush(output + pole * (dampingStates[i] - output))
            dampingStates[i] = filtered
            s[i] = gains[i] * filtered
        }

        // Fast Walsh–Hadamard transform (unnormalised), three butterfly stages.
        var half = 1
        while half < 8 {
            var block = 0
            while block < 8 {
                for j in block..<(block &+ half) {
                    let a = s[j]
                    let b = s[j &+ half]
                    s[j] = a + b
                    s[j &+ half] = a - b
                }
                block &+= half &* 2
            }
            half &*= 2
        }

        // Normalise (1/√8 makes the matrix orthogonal) and inject the input:
        // left into even lines, right into odd lines.
        let normalisation: Float = 0.353_553_39
        for i in 0..<8 {
            let injected = (i & 1 == 0) ? diffusedLeft : diffusedRight
            lines[i &* lineCapacity &+ (write & lineMask)] = DenormalGuard.flush(s[i] * normalisation + injected)
        }
        writeIndex = (write &+ 1) & lineMask

        let wetScale: Float = 0.353_553_39
        let outLeft = left + mixValue * (wetLeft * wetScale - left)
        let outRight = right + mixValue * (wetRight * wetScale - right)
        return (outLeft, outRight)
    }

    /// Four Schroeder allpasses in series on diffusers `first`…`first+3`.
    @inlinable @inline(__always)
    func diffuse(_ input: Float, first: Int) -> Float {
        var x = input
        let g = diffusionGain
        for k in first..<(first &+ 4) {
            let ring = diffusers + k &* diffuserCapacity
            let index = diffuserIndices[k]
            let delayed = ring[index]
            let v = DenormalGuard.flush(x + g * delayed)
            ring[index] = v
            x = delayed - g * v
            let next = index &+ 1
            diffuserIndices[k] = next == diffuserLengths[k] ? 0 : next
        }
        return x
    }

    /// Processes two channel buffers in place (equal length, at most the prepared block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        precondition(left.count == right.count, "stereo buffers must have the same length")
        for i in left.indices {
            let out = processFrame(left: left[i], right: right[i])
            left[i] = out.left
            right[i] = out.right
        }
    }

    /// Distinct primes near the base lengths × size, strictly increasing.
    func updateLengths() {
        var previous = 1
        for i in 0..<FeedbackDelayNetworkReverb.lineCount {
            let ideal = Int((FeedbackDelayNetworkReverb.baseLineLengthsMilliseconds[i] * Double(sizeSetting) * Double(sampleRate) / 1000).rounded())
            var candidate = max(ideal, previous + 1, 2)
            while !FeedbackDelayNetworkReverb.isPrime(candidate) { candidate += 1 }
            lengths[i] = min(candidate, lineCapacity - 1)
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
