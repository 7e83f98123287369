import Foundation
import Touchstone

/// One of HiSynth's three LFOs, evaluated at control rate (every `HiSynthModulation.controlInterval`
/// samples instead of the original's 50 Hz timer).
///
/// Shapes are the original's 4096-point tables read without interpolation (idx = ⌊phase·4096⌋):
/// sine; square −1 for the first half, +1 after; saw −1 → +1; triangle from −1 up to +1 at mid-cycle
/// and back; pulse +1 for the first 25 %, −1 after; reverse saw +1 → −1. Output = table ×
/// depth (depth 0 gives 0). The phase runs at `speed` Hz; `phaseOffset` (0…1 of a cycle) shifts
/// the table read, as the original's phase control does; a note-on resets the running phase to 0
/// (key sync). Depth moves to a new value over 20 ms (per tick), so a preset change never steps.
public struct HiSynthLFO: Sendable, Hashable {
    /// Table length of the original.
    public static let tableLength = 4096
    /// Time over which a changed depth is reached, in seconds.
    public static let depthSmoothingTime = 0.02

    public private(set) var waveform: Waveform = .sine
    /// Cycles per second (0.25…20 in the UI).
    public private(set) var speed: Double = 2
    /// Read offset, 0…1 of a cycle.
    public private(set) var phaseOffset: Double = 0
    /// Depth target, 0…1.
    public private(set) var depth: Float = 0
    /// Running phase, 0…1.
    public private(set) var phase: Double = 0
    /// The depth in effect (glides to `depth`).
    public private(set) var currentDepth: Float = 0
    var depthStep: Float = 0

    public init() {}

    /// Sets the shape, speed (Hz), phase offset (cycles) and depth; the depth glides unless `snap`.
    /// Values are clamped by the caller to the preset ranges; non-finite ones are ignored.
    mutating func set(waveform: Waveform, speed: Double, phaseOffset: Double, depth: Float, snap: Bool, ticksPerSecond: Double) {
        self.waveform = waveform
        if speed.isFinite { self.speed = max(0, speed) }
        if phaseOffset.isFinite { self.phaseOffset = phaseOffset - phaseOffset.rounded(.down) }
        if depth.isFinite { self.depth = min(max(depth, 0), 1) }
        if snap {
            currentDepth = self.depth
            depthStep = 0
        } else {
            let ticks = max(1, (Self.depthSmoothingTime * ticksPerSecond).rounded())
            depthStep = abs(self.depth - currentDepth) / Float(ticks)
        }
    }

    /// Key sync: the running phase back to 0.
    mutating func resetPhase() { phase = 0 }

    /// The value at the current phase (table × depth), then advances by `seconds` and the depth glide.
    @inline(__always)
    mutating func tick(seconds: Double) -> Float {
        let value = currentDepth == 0 ? 0 : Self.table(waveform, at: phase + phaseOffset) * currentDepth
        var p = phase + speed * seconds
        p -= p.rounded(.down)
        phase = p < 1 ? p : 0
        if currentDepth != depth {
            currentDepth = currentDepth < depth ? min(currentDepth + depthStep, depth) : max(currentDepth - depthStep, depth)
        }
        return value
    }

    /// The original's table value for `waveform` at `phase` (cycles, wrapped), −1…1.
    public static func table(_ waveform: HiSynthWaveform, at phase: Double) -> Float { table(waveform.shape, at: phase) }

    static func table(_ waveform: Waveform, at phase: Double) -> Float {
        var p = phase - phase.rounded(.down)
        if !(p < 1) { p = 0 }
        let index = min(Int(p * Double(tableLength)), tableLength - 1)
        let x = Double(index) / Double(tableLength)
        switch waveform {
        case .sine: return Float(sin(2 * Double.pi * x))
        case .square: return x < 0.5 ? -1 : 1
        case .saw: return Float(-1 + 2 * x)
        case .reverseSaw: return Float(1 - 2 * x)
        case .triangle: return Float(x < 0.5 ? -1 + 4 * x : 3 - 4 * x)
        case .pulse: return x < 0.25 ? 1 : -1
        }
    }
}
