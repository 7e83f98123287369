import Foundation

/// Bit crusher and sample-rate reducer ("decimator"), with dry/wet mix.
///
/// - Sample-rate reduction: a sample-and-hold with a fractional phase counter.
///   Every `reductionFactor` input samples (1…256, fractional allowed) the input
///   is captured and held, so the held value changes at fs / `reductionFactor`
///   Hz; a factor of 2.5 alternates holds of 2 and 3 samples. No anti-aliasing
///   filter — the aliasing is the sound. Set it as a rate with `targetSampleRate`.
/// - Bit-depth reduction: the captured sample is quantised by a mid-tread
///   quantiser with step Δ = 2^(1 − `bitDepth`) (`bitDepth` 1…24, fractional
///   allowed): y = Δ·round(x/Δ) (halves away from zero). 1 bit gives the levels −1, 0, +1; 16 bits gives
///   CD resolution (Δ = 1/32 768). Silence stays silent.
/// - `mix` (0…1) cross-fades dry to the crushed signal and is smoothed per sample.
///
/// HiSynth's "Decimator" (AUDistortion decimation 0…30 %, mix 0…100 %) maps its
/// percentage onto `reductionFactor`/`bitDepth`; the mapping lives in HiSynth.
/// The held sample is the only state: a NaN input is held until the next capture
/// (at most `reductionFactor` samples), then gone. Mono; one instance per channel.
public struct Decimator: MonoProcessor {
    /// Largest hold length, in samples.
    public static let maximumReductionFactor: Float = 256
    /// Bit-depth range.
    public static let bitDepthRange: ClosedRange<Float> = 1...24

    @usableFromInline var sampleRate: Float = 48_000
    @usableFromInline var smoothingCoefficient: Float = 1
    @usableFromInline var holdLength: Float = 1
    @usableFromInline var quantisationScale: Float = 32_768
    @usableFromInline var bits: Float = 16
    @usableFromInline var phase: Float = 0
    @usableFromInline var heldSample: Float = 0
    @usableFromInline var mixTarget: Float = 1
    @usableFromInline var mixValue: Float = 1

    /// Time constant of mix smoothing, in seconds (0…1; 0 = immediate).
    public var smoothingTime: Float = 0.01 {
        didSet {
            smoothingTime = min(max(smoothingTime, 0), 1)
            updateSmoothing()
        }
    }

    /// Creates a decimator holding each sample `reductionFactor` samples (1…256),
    /// quantising to `bitDepth` bits (1…24), with `mix` (0…1).
    public init(reductionFactor: Float = 1, bitDepth: Float = 24, mix: Float = 1) {
        self.reductionFactor = reductionFactor
        self.bitDepth = bitDepth
        self.mix = mix
        reset()
    }

    /// Hold length in input samples, 1 (off) … 256 (clamped). Applied from the next capture.
    public var reductionFactor: Float {
        get { holdLength }
        set { holdLength = newValue.clamped(to: 1...Self.maximumReductionFactor, nonFinite: 1) }
    }

    /// The reduced sample rate in Hz: sampleRate / `reductionFactor`. Setting it
    /// (valid after `prepare`) clamps to sampleRate/256 … sampleRate.
    public var targetSampleRate: Float {
        get { sampleRate / holdLength }
        set { reductionFactor = newValue > 0 ? sampleRate / newValue : Self.maximumReductionFactor }
    }

    /// Quantiser resolution in bits, 1…24 (clamped); step 2^(1 − bits).
    public var bitDepth: Float {
        get { bits }
        set {
            bits = newValue.clamped(to: Self.bitDepthRange, nonFinite: 24)
            quantisationScale = pow(2, bits - 1)
        }
    }

    /// Dry/wet, 0 (dry) … 1 (wet) (clamped). Smoothed.
    public var mix: Float {
        get { mixTarget }
        set { mixTarget = newValue.clamped(to: 0...1, nonFinite: 1) }
    }

    /// The quantiser alone: Δ·round(x/Δ) with Δ = 2^(1 − bitDepth), rounding half
    /// away from zero. Values beyond ±2^23 steps (far outside ±1) and NaN pass unchanged.
    @inlinable @inline(__always)
    public func quantise(_ x: Float) -> Float {
        let scaled = x * quantisationScale
        guard abs(scaled) < 8_388_608 else { return x }  // also false for NaN: no trapping conversion
        let rounded = Float(Int32(scaled + (scaled < 0 ? -0.5 : 0.5)))
        return rounded / quantisationScale
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = Float(spec.sampleRate)
        updateSmoothing()
        reset()
    }

    /// Clears the held sample; the next input sample is captured immediately.
    public mutating func reset() {
        heldSample = 0
        phase = holdLength  // capture on the first sample
        mixValue = mixTarget
    }

    /// Processes one sample (linear amplitude).
    @inlinable @inline(__always)
    public mutating func processSample(_ input: Float) -> Float {
        if phase >= holdLength {
            phase -= holdLength
            // A factor lowered mid-stream could leave a phase of several holds.
            if phase >= holdLength { phase = 0 }
            heldSample = quantise(input)
        }
        phase += 1
        mixValue += smoothingCoefficient * (mixTarget - mixValue)
        return input + mixValue * (heldSample - input)
    }

    /// Processes a block in place (at most the prepared maximum block size).
    #if !DEBUG  // checked only with whole-module optimisation, which sees across files
    @_noAllocation @_noLocks
    #endif
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices {
            buffer[i] = processSample(buffer[i])
        }
    }

    mutating func updateSmoothing() {
        smoothingCoefficient = smoothingTime > 0 ? 1 - exp(-1 / (smoothingTime * sampleRate)) : 1
    }
}
