import InstrumentSettings

/// The last ``capacity`` latencies of one kind (milliseconds), with their median and 95th percentile.
public struct StudioLatencyWindow: Sendable, Equatable {
    public static let capacity = 256
    private var values: [Double] = []
    private var next = 0
    /// Every latency added, also those the window no longer holds.
    public private(set) var count = 0

    public init() {}

    public mutating func add(_ milliseconds: Double) {
        guard milliseconds.isFinite else { return }
        if values.count < Self.capacity { values.append(milliseconds) } else { values[next] = milliseconds }
        next = (next + 1) % Self.capacity
        count += 1
    }

    /// The value at quantile `q` (0…1) of the window (nearest rank), nil when it is empty.
    public func quantile(_ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// `{"median": ms, "p95": ms, "count": n}` (ms to 0.1), null when empty.
    public var json: StudioValue {
        guard let median = quantile(0.5), let p95 = quantile(0.95) else { return .null }
        return ["median": .number((median * 10).rounded() / 10), "p95": .number((p95 * 10).rounded() / 10),
                "count": .number(Double(count))]
    }
}
