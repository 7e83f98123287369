/// 2^x without Foundation, accurate to a few ulps of Double for |x| ≤ 64.
///
/// Horatio stays free of Foundation (so it carries no libm dependency through it);
/// splitting into an integer power and a fractional part keeps the series short.
@usableFromInline
func pow2(_ x: Double) -> Double {
    let whole = x.rounded(.down)
    let fraction = x - whole  // 0 ≤ fraction < 1
    // e^(fraction·ln2) by Taylor series: 20 terms converge far below Double precision for fraction·ln2 < 0.7.
    let y = fraction * 0.693_147_180_559_945_309_417_232_121_458
    var term = 1.0
    var sum = 1.0
    for n in 1...20 {
        term *= y / Double(n)
        sum += term
    }
    let exponent = Int(whole)
    if exponent >= Double.greatestFiniteMagnitude.exponent { return .infinity }
    return Double(sign: .plus, exponent: exponent, significand: sum)
}

/// log2(x) for x > 0 without Foundation, accurate to about 1e-15 relative.
@usableFromInline
func log2Positive(_ x: Double) -> Double {
    precondition(x > 0 && x.isFinite, "log2 needs a positive finite argument")
    let exponent = Double(x.exponent)
    let m = x.significand  // 1 ≤ m < 2
    // ln(m) = 2·atanh((m−1)/(m+1)), series in z².
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    var n = 1.0
    while n < 80 {
        sum += term / n
        term *= z2
        n += 2
    }
    return exponent + 2 * sum / 0.693_147_180_559_945_309_417_232_121_458
}
