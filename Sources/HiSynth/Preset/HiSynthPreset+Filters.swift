extension HiSynthPreset {
    /// The filter section: low-pass, then high-pass.
    public struct Filters: Sendable, Hashable {
        /// The low-pass filter (first in the chain).
        public var lowPass: Filter
        /// The high-pass filter (after the low-pass).
        public var highPass: Filter

        public init(lowPass: Filter, highPass: Filter) {
            self.lowPass = lowPass
            self.highPass = highPass
        }
    }
}
