/// Order statistics of callback durations, in nanoseconds (nearest rank: the p-quantile is the
/// smallest value with at least p of the callbacks at or below it).
public struct JACKCallbackDistribution: Sendable, Hashable {
    public var median: Int64
    public var p99: Int64
    public var p999: Int64
    public var maximum: Int64
    public var mean: Int64

    public init(median: Int64 = 0, p99: Int64 = 0, p999: Int64 = 0, maximum: Int64 = 0, mean: Int64 = 0) {
        self.median = median
        self.p99 = p99
        self.p999 = p999
        self.maximum = maximum
        self.mean = mean
    }

    /// The distribution of `values` (any order); all zero when empty.
    public init(_ values: [Int64]) {
        guard !values.isEmpty else {
            self.init()
            return
        }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Int64 {
            let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        let total = sorted.reduce(0.0) { $0 + Double($1) }
        self.init(median: rank(0.5), p99: rank(0.99), p999: rank(0.999), maximum: sorted[sorted.count - 1],
                  mean: Int64((total / Double(sorted.count)).rounded()))
    }

    /// "median 14.2  p99 30.1  p99.9 210.0  max 2759.0 µs".
    public var microsecondsLine: String {
        func us(_ ns: Int64) -> String { "\((Double(ns) / 100).rounded() / 10)" }
        return "median \(us(median))  p99 \(us(p99))  p99.9 \(us(p999))  max \(us(maximum))  mean \(us(mean)) µs"
    }
}
