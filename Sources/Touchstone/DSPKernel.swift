/// The contract every DSP block in Touchstone follows.
///
/// Modelled on JUCE's dsp module: `prepare(_:)` sizes all state and is the only
/// place that allocates; `reset()` clears state without allocating and is safe on
/// the audio thread; the processing calls (declared by the refining protocols)
/// never allocate, lock, throw or log.
///
/// Kernels are structs or final classes and are composed statically (stored
/// properties of concrete types, or generics that specialise), never called
/// through `any` per sample.
public protocol DSPKernel {
    /// Sizes internal state for `spec`. May allocate. Call before any processing
    /// and again whenever the sample rate or block size changes.
    mutating func prepare(_ spec: ProcessSpec)

    /// Returns the kernel to its just-prepared state (silence, phases at zero)
    /// without allocating. Safe to call on the audio thread.
    mutating func reset()
}

/// A kernel that turns one input sample into one output sample (mono, in place).
public protocol MonoProcessor: DSPKernel {
    /// Processes one sample. Input and output are linear amplitude, nominally −1…1.
    mutating func processSample(_ input: Float) -> Float

    /// Processes a block in place. `buffer.count` must not exceed the prepared
    /// `maximumBlockSize`.
    mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>)
}

extension MonoProcessor {
    @inlinable
    public mutating func process(_ buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices {
            buffer[i] = processSample(buffer[i])
        }
    }
}

/// A kernel that produces a signal with no audio input (oscillators, LFOs, envelopes).
public protocol SignalGenerator: DSPKernel {
    /// Produces the next sample.
    mutating func nextSample() -> Float

    /// Fills `buffer` with the next `buffer.count` samples (overwrites, does not add).
    mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>)
}

extension SignalGenerator {
    @inlinable
    public mutating func generate(into buffer: UnsafeMutableBufferPointer<Float>) {
        for i in buffer.indices {
            buffer[i] = nextSample()
        }
    }
}

/// A kernel that processes a stereo pair in place (reverbs, stereo delays, limiters that link channels).
public protocol StereoProcessor: DSPKernel {
    /// Processes one stereo frame.
    mutating func processFrame(left: Float, right: Float) -> (left: Float, right: Float)

    /// Processes two equally long channel buffers in place.
    mutating func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>)
}

extension StereoProcessor {
    @inlinable
    public mutating func process(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        precondition(left.count == right.count, "stereo buffers must have the same length")
        for i in left.indices {
            let out = processFrame(left: left[i], right: right[i])
            left[i] = out.left
            right[i] = out.right
        }
    }
}
