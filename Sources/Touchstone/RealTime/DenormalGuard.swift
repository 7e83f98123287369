/// Keeps recursive filter state out of the denormal range without relying on the
/// thread's flush-to-zero mode.
///
/// `(x + 1e-18) - 1e-18` is exact for |x| above about 1e-11 (−220 dBFS) and
/// returns exactly 0 for |x| below about 1e-25, so a decaying one-pole or feedback
/// loop settles on 0 instead of sticking on a denormal. Two additions, no branch;
/// the compiler may not fold it (IEEE semantics, no fast-math in Swift).
@usableFromInline
enum DenormalGuard {
    @inlinable static var bias: Float { 1e-18 }

    /// `x` with magnitudes below ≈1e-25 replaced by 0; unchanged above ≈1e-11.
    @inlinable @inline(__always)
    static func flush(_ x: Float) -> Float {
        (x + bias) - bias
    }
}
