/// A filter response chosen at compile time, so a block loop specialises with no per-sample switch on
/// the filter mode (`StateVariableFilter.process(_:as:)`).
public protocol SVFResponse {
    /// The response from input `v0`, band output `v1`, low output `v2` and damping `k` = 1/Q.
    static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float
}

/// Low-pass response, 12 dB/octave.
public enum LowPassResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v2 }
}

/// High-pass response, 12 dB/octave.
public enum HighPassResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v0 - k * v1 - v2 }
}

/// Band-pass response with peak gain Q at the cutoff (Faust `fi.svf.bp`).
public enum BandPassResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v1 }
}

/// Band-pass response with 0 dB at the centre frequency.
public enum NormalizedBandPassResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { k * v1 }
}

/// Notch (band-reject) response.
public enum NotchResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v0 - k * v1 }
}

/// Peak response (low minus high), gain Q at the cutoff.
public enum PeakResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v0 - k * v1 - 2 * v2 }
}

/// All-pass response.
public enum AllPassResponse: SVFResponse {
    @inlinable @inline(__always)
    public static func output(input v0: Float, band v1: Float, low v2: Float, k: Float) -> Float { v0 - 2 * k * v1 }
}
