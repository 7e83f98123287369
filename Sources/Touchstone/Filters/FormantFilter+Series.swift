extension FormantFilter {
    /// `filter.process(buffer, as: R.self)` and then `process(buffer)`, with the same result bit for bit, in
    /// one pass where both are settled: the filter ticks in lane 2 of the vector whose lanes 0 and 1 tick the
    /// formants, one sample ahead of them (lane 2 filters sample n + 1 while the formants take sample n).
    ///
    /// Why: the formants' two band-passes already share one vector step and leave lanes 2 and 3 idle; a filter
    /// ahead of them in series is a third recursion of the same shape, so its sample costs no extra step where
    /// two passes cost one recursion latency each per sample. While anything glides, two passes as before.
    /// Pinned by `FormantFilterTests.seriesPassMatchesTwoPasses`.
    @inlinable
    public mutating func process<R: SVFResponse>(_ buffer: UnsafeMutableBufferPointer<Float>,
                                                 after filter: inout StateVariableFilter, as response: R.Type) {
        guard !(filter.isSmoothing || isSmoothing), let x = buffer.baseAddress, buffer.count > 0 else {
            filter.process(buffer, as: R.self)
            process(buffer)
            return
        }
        let count = buffer.count
        let c1 = first.currentCoefficients, c2 = second.currentCoefficients, c = filter.currentCoefficients
        var lanes = SVFStateLanes(c1, first.channelState, c2, second.channelState, c, filter.channelState)
        let k = SIMD4<Float>(c1.k, c2.k, 0, 0)
        let dry = dryGain.current, g1 = firstGain.current, g2 = secondGain.current

        // Sample 0 through the filter alone: the formant lanes' state stays as it was.
        var before = lanes
        var input = x[0]
        var (band, low) = lanes.tick(SIMD4(0, 0, input, 0))
        lanes.ic1 = SIMD4(before.ic1[0], before.ic1[1], lanes.ic1[2], 0)
        lanes.ic2 = SIMD4(before.ic2[0], before.ic2[1], lanes.ic2[2], 0)
        var filtered = R.output(input: input, band: band[2], low: low[2], k: c.k)
        for i in 1..<count {
            input = x[i]
            (band, low) = lanes.tick(SIMD4(filtered, filtered, input, 0))
            let bands = k * band  // NormalizedBandPassResponse.output
            x[i &- 1] = dry * filtered + g1 * bands[0] + g2 * bands[1]
            filtered = R.output(input: input, band: band[2], low: low[2], k: c.k)
        }
        // The last sample through the formants alone: the filter's lane keeps its state.
        before = lanes
        (band, _) = lanes.tick(SIMD4(filtered, filtered, 0, 0))
        lanes.ic1[2] = before.ic1[2]
        lanes.ic2[2] = before.ic2[2]
        let bands = k * band
        x[count &- 1] = dry * filtered + g1 * bands[0] + g2 * bands[1]

        filter.state = lanes.state(2)
        first.state = lanes.state(0)
        second.state = lanes.state(1)
        // As the two block passes do at their ends.
        if !(filter.state.ic1.isFinite && filter.state.ic2.isFinite) { filter.reset() }
        if !(first.state.ic1.isFinite && first.state.ic2.isFinite) { first.reset() }
        if !(second.state.ic1.isFinite && second.state.ic2.isFinite) { second.reset() }
    }
}
