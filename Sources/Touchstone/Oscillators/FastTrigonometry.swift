/// Polynomial sine, cosine and tangent for the audio thread.
///
/// Written in Swift (no libm call) so render paths can be checked with `@_noAllocation` and fully
/// inlined. Degree-11/12 Taylor polynomials on a quarter period: the truncation error is below
/// 6e-8, i.e. at the level of Float rounding.
public enum FastTrigonometry {
    /// sin(x) for x in −π/2…π/2 (radians).
    @inlinable @inline(__always)
    public static func sinQuarter(_ x: Float) -> Float {
        let x2 = x * x
        var p: Float = -1.0 / 39_916_800      // −1/11!
        p = p * x2 + 1.0 / 362_880            //  1/9!
        p = p * x2 - 1.0 / 5_040              // −1/7!
        p = p * x2 + 1.0 / 120
        p = p * x2 - 1.0 / 6
        p = p * x2 + 1
        return p * x
    }

    /// cos(x) for x in −π/2…π/2 (radians).
    @inlinable @inline(__always)
    public static func cosQuarter(_ x: Float) -> Float {
        let x2 = x * x
        var p: Float = 1.0 / 479_001_600      //  1/12!
        p = p * x2 - 1.0 / 3_628_800          // −1/10!
        p = p * x2 + 1.0 / 40_320
        p = p * x2 - 1.0 / 720
        p = p * x2 + 1.0 / 24
        p = p * x2 - 0.5
        return p * x2 + 1
    }

    /// sin(2π·turns) for `turns` in −1.5…1.5 (one turn = one period; oscillator phases 0…1 plus an
    /// offset). Absolute error below 2e-7.
    @inlinable @inline(__always)
    public static func sin(turns: Float) -> Float {
        var r = turns                             // wrapped to −0.5…0.5 without a libm call
        if r > 0.5 { r -= 1 } else if r < -0.5 { r += 1 }
        // Literals rather than Float.pi: the stdlib getter is an opaque call in debug builds,
        // which @_noAllocation callers reject.
        let pi: Float = 3.14159265358979
        var x = r * (2 * pi)                      // −π…π
        let halfPi: Float = 1.57079632679490
        if x > halfPi { x = pi - x } else if x < -halfPi { x = -pi - x }
        return sinQuarter(x)
    }

    /// cos(2π·turns) for `turns` in −1.5…1.25.
    @inlinable @inline(__always)
    public static func cos(turns: Float) -> Float {
        sin(turns: turns + 0.25)
    }

    /// tan(π·x) for x in 0…0.4999 (the SVF prewarp g = tan(π·fc/fs)); relative error about 1e-6
    /// up to x = 0.49.
    @inlinable @inline(__always)
    public static func tanPi(_ x: Float) -> Float {
        let theta = x * 3.14159265358979
        return sinQuarter(theta) / cosQuarter(theta)
    }
}
