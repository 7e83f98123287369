/// Two channels of `StateVariableFilter` sharing one set of smoothed parameters and coefficients:
/// half the coefficient work of two mono filters, and both channels always agree.
///
///     var svf = StereoStateVariableFilter(mode: .lowPass, cutoff: 1_200, q: 2)
///     svf.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
///     svf.process(left: l, right: r)
@frozen
public struct StereoStateVariableFilter: StereoProcessor, Sendable {
    /// Parameters, coefficients and the left channel's state.
    @usableFromInline var left: StateVariableFilter
    @usableFromInline var rightState = SVFState()

    /// Same parameters as `StateVariableFilter.init`.
    public init(mode: FilterMode = .lowPass, cutoff: Float = 1_000, q: Float = 0.7071, smoothingTime: Double = 0.02) {
        left = StateVariableFilter(mode: mode, cutoff: cutoff, q: q, smoothingTime: smoothingTime)
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        left.prepare(spec)
        rightState.reset()
    }

    public mutating func reset() {
        left.reset()
        rightState.reset()
    }

    /// The response.
    public var mode: FilterMode { left.mode }
    /// The current (smoothed) cutoff in Hz.
    public var cutoff: Float { left.cutoff }
    /// The current (smoothed) Q.
    public var q: Float { left.q }

    /// See `StateVariableFilter.setMode(_:)`.
    public mutating func setMode(_ mode: FilterMode) { left.setMode(mode) }
    /// Glides the cutoff to `hz` (1…0.49·fs).
    public mutating func setCutoff(_ hz: Float) { left.setCutoff(hz) }
    /// Glides Q to `q` (0.1…50).
    public mutating func setQ(_ q: Float) { left.setQ(q) }
    /// Sets cutoff (Hz) and Q with no smoothing (per-sample modulation).
    public mutating func setImmediately(cutoff: Float, q: Float) { left.setImmediately(cutoff: cutoff, q: q) }

    /// Filters one frame with the current mode.
    @inlinable @inline(__always)
    public mutating func processFrame(left l: Float, right r: Float) -> (left: Float, right: Float) {
        let outLeft = left.processSample(l)
        let c = left.coefficients
        let w = left.weights
        let (v1, v2) = rightState.tick(r, c)
        let band = w.bandConstant + w.bandPerK * c.k
        return (outLeft, w.input * r + band * v1 + w.low * v2)
    }

    /// Filters both channels in place.
    // Checked in release (whole-module) builds only: debug builds compile files apart and cannot see across them.
    #if DEBUG
    #else
    @_noAllocation
    #endif
    @inlinable
    public mutating func process(left l: UnsafeMutableBufferPointer<Float>, right r: UnsafeMutableBufferPointer<Float>) {
        precondition(l.count == r.count, "stereo buffers must have the same length")
        var filter = self             // local copy: stores through the buffers could alias `self`
        for i in l.indices {
            let out = filter.processFrame(left: l[i], right: r[i])
            l[i] = out.left
            r[i] = out.right
        }
        self = filter
        if !(rightState.ic1.isFinite && rightState.ic2.isFinite) { rightState.reset() }
        if !(left.state.ic1.isFinite && left.state.ic2.isFinite) { left.state.reset() }
    }
}
