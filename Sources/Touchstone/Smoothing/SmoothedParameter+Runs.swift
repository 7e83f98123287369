extension SmoothedParameter {
    /// The next four values, each exactly what four calls of `next()` return (the same bits, the same state
    /// after): a linear or multiplicative glide with at least four samples left steps without testing its
    /// style and its end per sample; anything else takes `next()` four times.
    ///
    /// For block loops that compute four samples' coefficients at a time (`StateVariableFilter` while its
    /// cutoff or Q glides).
    @inlinable @inline(__always)
    public mutating func nextFour() -> SIMD4<Float> {
        if remaining >= 4 {
            let s = step
            switch style {
            case .linear:
                let a = _current + s, b = a + s, c = b + s
                let d = remaining == 4 ? _target : c + s
                remaining &-= 4
                _current = d
                return SIMD4(a, b, c, d)
            case .multiplicative:
                let a = _current * s, b = a * s, c = b * s
                let d = remaining == 4 ? _target : c * s
                remaining &-= 4
                _current = d
                return SIMD4(a, b, c, d)
            case .exponential:
                break
            }
        }
        let a = next(), b = next(), c = next()
        return SIMD4(a, b, c, next())
    }
}
