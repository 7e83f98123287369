extension Array where Element == Int {
    /// The `q`-quantile (0…1) of the values: the value at index ⌊count × q⌋ of the sorted values; nil when empty.
    func quantile(_ q: Double) -> Int? {
        guard !isEmpty else { return nil }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    var median: Int? { quantile(0.5) }

    /// "107 … 170" in frames, "—" when empty.
    var spread: String {
        guard let low = self.min(), let high = self.max() else { return "—" }
        return "\(low) … \(high)"
    }
}
