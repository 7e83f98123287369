import Foundation

/// The seed's LFO for Feel Your Vibe, with its `update(deltaTime:)` contract: the phase advances by
/// 2π·f·Δt and the output is amplitude·sin(phase).
///
/// Frequency 0.1…10 Hz (starts at 1.0), amplitude 0…1 (starts at 0.1), as the seed's class. The phase
/// is kept in 0…2π so it never loses precision in a long session; a frequency change keeps the phase,
/// so the tremolo speeds up or slows down without a jump.
public struct VibeLFO: Sendable, Hashable {
    public static let frequencyRange = 0.1...10.0
    public static let startFrequency = 1.0
    public static let startAmplitude = 0.1

    /// Oscillation speed in Hz (clamped to 0.1…10).
    public var frequency: Double = startFrequency {
        didSet { frequency = frequency.isFinite ? min(max(frequency, Self.frequencyRange.lowerBound), Self.frequencyRange.upperBound) : Self.startFrequency }
    }
    /// Oscillation depth 0…1 (clamped).
    public var amplitude: Double = startAmplitude {
        didSet { amplitude = amplitude.isFinite ? min(max(amplitude, 0), 1) : Self.startAmplitude }
    }
    /// Radians, 0…2π.
    public private(set) var phase: Double = 0

    public init() {}

    /// Advances by `deltaTime` seconds and returns amplitude·sin(phase), −amplitude…amplitude.
    @inlinable
    public mutating func update(deltaTime: Double) -> Double {
        advance(deltaTime)
        return amplitude * sin(phase)
    }

    @usableFromInline
    mutating func advance(_ deltaTime: Double) {
        phase += 2 * .pi * frequency * deltaTime
        if phase >= 2 * .pi { phase -= 2 * .pi * (phase / (2 * .pi)).rounded(.down) }
    }

    /// Back to phase 0.
    public mutating func reset() { phase = 0 }

    /// The tremolo gain for an LFO output `value` at depth `amplitude` (the law chosen here, since the
    /// seed only says the LFO "modulates the volume"): gain = 1 − (amplitude − value)/2, so the volume
    /// swings between 1 (at the LFO's peak) and 1 − amplitude (at its trough) and never exceeds 1.
    @inlinable
    public static func gain(value: Double, amplitude: Double) -> Double { 1 - (amplitude - value) / 2 }
}
