import Foundation

/// Four sine oscillators side by side, each a unit phasor rotated by a fixed angle every sample:
/// a pure sine for the price of a complex multiply, for steady tones such as drones and sub-basses.
///
/// Why a phasor: a polynomial sine costs a dozen dependent multiply-adds per sample; a rotation costs
/// four multiplies and two adds for all four lanes, with a short dependency chain. The phasor's length
/// is pulled back to 1 every sample (one Newton step of 1/√(re² + im²)), so amplitude does not drift
/// over hours; the frequency error is the rounding of the rotation's cos/sin (below 1e-7 relative).
///
/// `setFrequencies(_:)` evaluates cos and sin of the new step (two polynomials per lane), so call it at
/// control rate, or per sample only while a glide moves; the phase is continuous either way. Output is
/// sin(2π·phase) per lane, −1…1. Frequencies are clamped to 0…0.45·fs like `BandLimitedOscillator`'s.
///
///     var pedal = RotatingSineLanes(frequencies: SIMD4(65.4, 130.8, 196, 0))
///     pedal.prepare(spec)
///     let y = pedal.nextSample()           // SIMD4<Float>
@frozen
public struct RotatingSineLanes: Sendable {
    public typealias Vector = SIMD4<Float>

    @usableFromInline var real: Vector
    @usableFromInline var imaginary: Vector
    @usableFromInline var stepCosine = Vector(repeating: 1)
    @usableFromInline var stepSine = Vector()
    @usableFromInline var frequenciesHz: Vector
    @usableFromInline var startPhases: Vector
    @usableFromInline var inverseSampleRate: Float = 1 / 48_000

    /// - Parameters:
    ///   - frequencies: Hz per lane, 0…0.45·fs.
    ///   - phases: starting phase per lane, 0…1 (also restored by `reset()`).
    public init(frequencies: Vector = Vector(repeating: 440), phases: Vector = Vector()) {
        let wrapped = phases - phases.rounded(.down)
        startPhases = wrapped.replacing(with: 0, where: .!(wrapped .== wrapped) .| (wrapped .>= 1))
        frequenciesHz = frequencies
        real = Vector(repeating: 1)
        imaginary = Vector()
        setFrequencies(frequencies)
        reset()
    }

    /// Takes the sample rate. No allocation.
    public mutating func prepare(_ spec: ProcessSpec) {
        inverseSampleRate = Float(1 / spec.sampleRate)
        setFrequencies(frequenciesHz)
        reset()
    }

    /// Restores the starting phases.
    public mutating func reset() {
        for lane in 0..<4 {
            real[lane] = FastTrigonometry.cos(turns: startPhases[lane])
            imaginary[lane] = FastTrigonometry.sin(turns: startPhases[lane])
        }
    }

    /// The phase of the next sample per lane, 0…1.
    public var phase: Vector {
        var p = Vector()
        for lane in 0..<4 {
            let turns = Float(atan2(Double(imaginary[lane]), Double(real[lane])) / (2 * Double.pi))
            p[lane] = turns < 0 ? turns + 1 : turns
        }
        return p
    }

    /// The current frequencies in Hz per lane (after clamping).
    public var frequencies: Vector {
        var hz = Vector()
        for lane in 0..<4 { hz[lane] = Self.step(frequenciesHz[lane], inverseSampleRate) / inverseSampleRate }
        return hz
    }

    /// Sets every lane's frequency in Hz (clamped to 0…0.45·fs; NaN becomes 0). Two polynomials per lane.
    @inlinable
    public mutating func setFrequencies(_ hz: Vector) {
        frequenciesHz = hz
        for lane in 0..<4 {
            let step = Self.step(hz[lane], inverseSampleRate)
            stepCosine[lane] = FastTrigonometry.cos(turns: step)
            stepSine[lane] = FastTrigonometry.sin(turns: step)
        }
    }

    /// Turns per sample for `hz`, clamped like `BandLimitedOscillator`'s increment.
    @inlinable @inline(__always)
    static func step(_ hz: Float, _ inverseSampleRate: Float) -> Float {
        // NaN (and anything not above 0) becomes 0, +∞ the ceiling.
        let normalized = hz * inverseSampleRate
        return normalized > 0 ? min(normalized, BandLimitedOscillator.maximumNormalizedFrequency) : 0
    }

    /// Next sample per lane, sin(2π·phase), −1…1.
    @inlinable @inline(__always)
    public mutating func nextSample() -> Vector {
        let y = imaginary
        let re = real * stepCosine - imaginary * stepSine
        let im = real * stepSine + imaginary * stepCosine
        // First-order 1/|z|: the rounding of one rotation is ~1e-7, so one step lands on 1 to Float precision.
        let correction = 1.5 - 0.5 * (re * re + im * im)
        real = re * correction
        imaginary = im * correction
        return y
    }
}
