/// One target checked against one measured figure: what was wanted, what was measured, whether it was met.
struct BenchCheck {
    /// The target as the table prints it ("median ≤ 208").
    var target: String
    /// The measured figure ("135"; "none" when nothing was measured).
    var measured: String
    var met: Bool

    /// `name` ≤ `limit`; missed when nothing was measured.
    static func atMost(_ name: String, _ value: Int?, _ limit: Int) -> BenchCheck {
        BenchCheck(target: "\(name) ≤ \(limit)", measured: value.map(String.init) ?? "none", met: value.map { $0 <= limit } ?? false)
    }

    /// `name` within `range`; missed when nothing was measured.
    static func within(_ name: String, _ value: Int?, _ range: ClosedRange<Int>) -> BenchCheck {
        BenchCheck(target: "\(name) in \(range.lowerBound) … \(range.upperBound)", measured: value.map(String.init) ?? "none",
                   met: value.map(range.contains) ?? false)
    }

    /// A condition on the whole sample, told by `measured`.
    static func holds(_ target: String, _ met: Bool, measured: String) -> BenchCheck {
        BenchCheck(target: target, measured: measured, met: met)
    }
}
