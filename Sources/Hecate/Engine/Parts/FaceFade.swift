/// The face fade: every voice and the drone follow the face in and out of view along an S-curve
/// (smoothstep), 100 ms down when the face is lost and 450 ms up when it is found, so neither end clicks.
///
/// It starts with no face in view, so the engine is silent until the first face arrives and the
/// launch fade-in is the face-found fade (the seed: no face means silence, tones and drone).
struct FaceFade {
    /// The gain now, 0 (silent) … 1.
    private(set) var gain: Float = 0
    /// Position on the S-curve, 0…1 (the gain is `smoothstep(position)`).
    private(set) var position = 0.0
    /// Whether a face is in view (the fade rises) or not (it falls).
    private(set) var isFaceInView = false
    /// Position change per sample going down and up.
    private var downStep = 0.0
    private var upStep = 0.0

    /// Step sizes for `sampleRate` (Hz) and the fade times `down` and `up` (seconds, > 0).
    mutating func prepare(sampleRate: Double, down: Double, up: Double) {
        downStep = 1 / (down * sampleRate)
        upStep = 1 / (up * sampleRate)
    }

    /// Silent, with no face in view.
    mutating func reset() {
        gain = 0
        position = 0
        isFaceInView = false
    }

    /// The face is in view: rise from wherever the fade is.
    mutating func faceFound() { isFaceInView = true }

    /// The face left: fall from wherever the fade is.
    mutating func faceLost() { isFaceInView = false }

    /// The face is in view and the fade has arrived: the gain is 1 and stays there.
    var isOpen: Bool { isFaceInView && position >= 1 }

    /// Advances one sample; returns the gain for it.
    @inline(__always)
    mutating func advance() -> Float {
        if isFaceInView {
            if position < 1 {
                position = min(1, position + upStep)
                gain = Float(ControlMath.smoothstep(position))
            }
        } else if position > 0 {
            position = max(0, position - downStep)
            gain = Float(ControlMath.smoothstep(position))
        }
        return gain
    }
}
