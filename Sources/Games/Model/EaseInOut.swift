/// SwiftUI's `.easeInOut` timing curve: the cubic Bézier (0.42, 0) (0.58, 1), as CSS `ease-in-out`.
public enum EaseInOut {
    /// Progress 0…1 of an animation at time fraction `x` (clamped to 0…1).
    public static func progress(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        // x(s) = 3(1−s)²s·0.42 + 3(1−s)s²·0.58 + s³; solve x(s) = x by bisection (monotonic), then y(s).
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let s = (lo + hi) / 2
            if bezier(s, 0.42, 0.58) < x { lo = s } else { hi = s }
        }
        return bezier((lo + hi) / 2, 0, 1)
    }

    static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
}
