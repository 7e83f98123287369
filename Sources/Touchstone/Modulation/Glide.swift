import Foundation

/// Portamento in the pitch domain: the frequency moves along a straight line in semitones
/// (a constant ratio per sample), so a glide sounds even, as on an analog mono synth.
///
/// The per-sample cost is one multiply while gliding and a compare when settled (no `exp` per sample:
/// the ratio is computed when the target changes). Retargeting mid-glide starts from the current pitch.
///
///     var glide = Glide(mode: .time(0.08), frequency: 220)
///     glide.prepare(spec)
///     glide.setTarget(frequency: 330)
///     osc.setFrequency(glide.nextSample())      // Hz
@frozen
public struct Glide: SignalGenerator, Sendable {
    /// How targets are approached. Takes effect at the next `setTarget`.
    public var mode: GlideMode

    @usableFromInline var currentHz: Double
    @usableFromInline var targetHz: Double
    @usableFromInline var ratio: Double = 1
    @usableFromInline var remaining: Int = 0
    @usableFromInline var sampleRate: Double = 48_000

    /// Lowest frequency accepted, in Hz (a glide needs a positive frequency).
    public static let minimumFrequency: Double = 0.01

    /// - Parameters:
    ///   - mode: off, by time or by rate.
    ///   - frequency: starting frequency in Hz (> 0).
    public init(mode: GlideMode = .off, frequency: Double = 440) {
        self.mode = mode
        let f = Self.clamp(frequency)
        currentHz = f
        targetHz = f
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        reset()
    }

    /// Jumps to the target (no glide in progress).
    public mutating func reset() {
        currentHz = targetHz
        remaining = 0
    }

    @usableFromInline
    static func clamp(_ hz: Double) -> Double {
        hz.isFinite ? max(hz, minimumFrequency) : 440
    }

    /// The current frequency in Hz.
    @inlinable public var frequency: Double { currentHz }
    /// The frequency being approached, in Hz.
    @inlinable public var targetFrequency: Double { targetHz }
    /// Whether a glide is in progress.
    @inlinable public var isGliding: Bool { remaining > 0 }

    /// Starts a glide to `hz` (> 0) according to `mode`. Control rate (calls `log2`/`exp2`).
    public mutating func setTarget(frequency hz: Double) {
        let target = Self.clamp(hz)
        targetHz = target
        let semitones = 12 * log2(target / currentHz)
        let seconds: Double
        switch mode {
        case .off:
            seconds = 0
        case .time(let t):
            seconds = t.clamped(to: 0...10, nonFinite: 0)
        case .rate(let speed):
            seconds = speed.isFinite && speed > 0 ? abs(semitones) / speed : 0
        }
        let samples = Int((seconds * sampleRate).rounded())
        if samples <= 0 || semitones == 0 {
            currentHz = target
            remaining = 0
        } else {
            ratio = exp2(semitones / 12 / Double(samples))
            remaining = samples
        }
    }

    /// Starts a glide to MIDI note number `note` (69 = A4 = 440 Hz; fractional notes allowed).
    public mutating func setTarget(midiNote note: Double) {
        setTarget(frequency: 440 * exp2((note - 69) / 12))
    }

    /// Jumps to `hz` immediately (first note of a phrase, or legato off).
    public mutating func jump(to hz: Double) {
        let f = Self.clamp(hz)
        currentHz = f
        targetHz = f
        remaining = 0
    }

    /// Next frequency in Hz.
    @inlinable @inline(__always)
    public mutating func nextSample() -> Float {
        if remaining > 0 {
            remaining &-= 1
            currentHz = remaining == 0 ? targetHz : currentHz * ratio
        }
        return Float(currentHz)
    }

    /// Fills `buffer` with frequencies in Hz.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>) {
        var glide = self              // local copy: stores through `buffer` could alias `self`
        for i in buffer.indices { buffer[i] = glide.nextSample() }
        self = glide
    }
}
