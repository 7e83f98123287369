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
        let a1 = SIMD4<Float>(c1.a1, c2.a1, c.a1, 0), a2 = SIMD4<Float>(c1.a2, c2.a2, c.a2, 0)
        let a3 = SIMD4<Float>(c1.a3, c2.a3, c.a3, 0), k = SIMD4<Float>(c1.k, c2.k, 0, 0)
        let filterState = filter.channelState
        var ic1 = SIMD4<Float>(first.channelState.ic1, second.channelState.ic1, filterState.ic1, 0)
        var ic2 = SIMD4<Float>(first.channelState.ic2, second.channelState.ic2, filterState.ic2, 0)
        let threshold = SIMD4<Float>(repeating: SVFState.flushThreshold)
        let dry = dryGain.current, g1 = firstGain.current, g2 = secondGain.current
        let filterLane = SIMD4<Int32>(0, 0, -1, 0) .!= 0

        /// One vector step: `SVFState.tick`'s operations per lane (the same bits as the scalar tick and as
        /// `process(_:)`'s settled loop), returning the lanes' band and low outputs.
        @inline(__always)
        func step(_ input: SIMD4<Float>) -> (band: SIMD4<Float>, low: SIMD4<Float>) {
            let v3 = input - ic2
            let v1 = a1 * ic1 + a2 * v3
            let v2 = ic2 + a2 * ic1 + a3 * v3
            let n1 = 2 * v1 - ic1
            let n2 = 2 * v2 - ic2
            ic1 = n1.replacing(with: 0, where: (n1 .< threshold) .& (n1 .> -threshold))
            ic2 = n2.replacing(with: 0, where: (n2 .< threshold) .& (n2 .> -threshold))
            return (v1, v2)
        }

        // Sample 0 through the filter alone: the formant lanes' state stays as it was.
        var before1 = ic1, before2 = ic2
        var input = x[0]
        var (band, low) = step(SIMD4(0, 0, input, 0))
        ic1 = before1.replacing(with: ic1, where: filterLane)
        ic2 = before2.replacing(with: ic2, where: filterLane)
        var filtered = R.output(input: input, band: band[2], low: low[2], k: c.k)
        for i in 1..<count {
            input = x[i]
            (band, low) = step(SIMD4(filtered, filtered, input, 0))
            let bands = k * band  // NormalizedBandPassResponse.output
            x[i &- 1] = dry * filtered + g1 * bands[0] + g2 * bands[1]
            filtered = R.output(input: input, band: band[2], low: low[2], k: c.k)
        }
        // The last sample through the formants alone: the filter's lane keeps its state.
        before1 = ic1
        before2 = ic2
        (band, _) = step(SIMD4(filtered, filtered, 0, 0))
        ic1 = ic1.replacing(with: before1, where: filterLane)
        ic2 = ic2.replacing(with: before2, where: filterLane)
        let bands = k * band
        x[count &- 1] = dry * filtered + g1 * bands[0] + g2 * bands[1]

        filter.state.ic1 = ic1[2]
        filter.state.ic2 = ic2[2]
        first.state.ic1 = ic1[0]
        first.state.ic2 = ic2[0]
        second.state.ic1 = ic1[1]
        second.state.ic2 = ic2[1]
        // As the two block passes do at their ends.
        if !(filter.state.ic1.isFinite && filter.state.ic2.isFinite) { filter.reset() }
        if !(first.state.ic1.isFinite && first.state.ic2.isFinite) { first.reset() }
        if !(second.state.ic1.isFinite && second.state.ic2.isFinite) { second.reset() }
    }
}
