/// What a renderer could not carry over to its target. Renderers never fail: they render what the
/// target can play and list what was lost.
public enum HapticRenderWarning: Sendable, Hashable, CustomStringConvertible {
    /// The target has no sharpness (frequency) control; sharpness was dropped.
    case sharpnessDropped
    /// Sharpness was approximated (by the balance between two rumble motors).
    case sharpnessApproximated
    /// Intensity was quantised to `levels` steps.
    case intensityQuantised(levels: Int)
    /// The target is on/off only; intensity became pulse width over windows of `window` seconds.
    case intensityAsPulseWidth(window: Double)
    /// `count` transients were lengthened to `length` seconds, the target's shortest step.
    case transientsLengthened(count: Int, length: Double)
    /// `count` steps shorter than `minimum` seconds were merged into their neighbours.
    case shortStepsMerged(count: Int, minimum: Double)
    /// `count` audio events (AudioContinuous, AudioCustom) are not haptics and were not rendered.
    case audioEventsIgnored(count: Int)
    /// Attack, decay and release envelopes were not rendered (the events play flat).
    case envelopesIgnored
    /// Android composition delays assume each primitive lasts `milliseconds` (the device decides).
    case primitiveLengthAssumed(milliseconds: Int)
    /// The pattern holds continuous events, so Android primitives do not fit; a waveform was written.
    case waveformInsteadOfPrimitives
    /// The pattern was cut at `time` seconds to fit the target's limit (`limit`).
    case truncated(time: Double, limit: String)

    public var description: String {
        switch self {
        case .sharpnessDropped: return "sharpness dropped: the target has no frequency control"
        case .sharpnessApproximated: return "sharpness approximated by the balance of the strong (low) and weak (high) motors"
        case .intensityQuantised(let n): return "intensity quantised to \(n) levels"
        case .intensityAsPulseWidth(let w): return "intensity rendered as pulse width over \(Int((w * 1000).rounded())) ms windows (the target is on/off only)"
        case .transientsLengthened(let n, let l): return "\(n) transient(s) lengthened to \(Int((l * 1000).rounded())) ms"
        case .shortStepsMerged(let n, let m): return "\(n) step(s) shorter than \(Int((m * 1000).rounded())) ms merged into their neighbours"
        case .audioEventsIgnored(let n): return "\(n) audio event(s) ignored (not haptics)"
        case .envelopesIgnored: return "attack/decay/release envelopes ignored"
        case .primitiveLengthAssumed(let ms): return "primitive lengths are the phone's; delays assume \(ms) ms each"
        case .waveformInsteadOfPrimitives: return "the pattern is not taps only, so it was written as a waveform, not primitives"
        case .truncated(let t, let limit): return "pattern cut at \(t) s (\(limit))"
        }
    }
}
