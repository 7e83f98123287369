extension BinaryFloatingPoint {
    /// The value clamped into `range`; NaN and ±∞ become `fallback`, so a bad control value from a
    /// UI, a preset or a tracker can never reach a kernel's state.
    @inlinable @inline(__always)
    func clamped(to range: ClosedRange<Self>, nonFinite fallback: Self) -> Self {
        isFinite ? Swift.min(Swift.max(self, range.lowerBound), range.upperBound) : fallback
    }
}
