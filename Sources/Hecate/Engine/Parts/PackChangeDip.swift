/// The dip a pack change makes: the tone bus and the reverb return fall to 0 over 15 ms, the settings
/// that cannot glide (waveform, detune, room size) change at the bottom, and both come back up over
/// 15 ms. Along an S-curve (smoothstep), so the swap never clicks.
///
/// The dip only keeps the gain curve and says when the bottom is reached; the engine swaps the
/// settings there (the oscillators in the same sample, the room right after the chunk's reverb).
struct PackChangeDip {
    /// Position on the S-curve, 0 (bottom, silent) … 1 (full level).
    private(set) var position = 1.0
    /// A change waits: the dip is falling towards its bottom.
    private(set) var isFalling = false
    /// The dip has reached its bottom and the engine has not yet swapped everything there.
    private(set) var isAtBottom = false
    /// Position change per sample.
    private var step = 0.0

    /// Step size for `sampleRate` (Hz) and `halfTime`, the length of each half (seconds, > 0).
    mutating func prepare(sampleRate: Double, halfTime: Double) {
        step = 1 / (halfTime * sampleRate)
    }

    /// Full level, nothing waiting.
    mutating func reset() {
        position = 1
        isFalling = false
        isAtBottom = false
    }

    /// A change arrived: fall (again) from wherever the dip is.
    mutating func begin() { isFalling = true }

    /// The engine has swapped everything the bottom was for.
    mutating func leaveBottom() { isAtBottom = false }

    /// Nothing waits and the level is full: the gain is 1.
    var isSteady: Bool { !isFalling && position >= 1 }

    /// Advances one sample; returns the gain for it, 0…1.
    @inline(__always)
    mutating func advance() -> Double {
        if isFalling {
            position -= step
            if position <= 0 {
                position = 0
                isAtBottom = true
                isFalling = false
            }
        } else if position < 1 {
            position = min(1, position + step)
        } else {
            return 1
        }
        return ControlMath.smoothstep(position)
    }
}
