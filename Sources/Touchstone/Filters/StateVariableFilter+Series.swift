extension StateVariableFilter {
    /// The next four samples' coefficients, advancing the glides by four samples: `advanceSmoothing()` four
    /// times, lane for lane the same bits (a glide that ends inside the four leaves its target in the later
    /// lanes). A settled filter gets its coefficients in every lane. The last lane becomes `coefficients`.
    @_transparent @usableFromInline
    mutating func nextFourCoefficients() -> SVFCoefficientLanes {
        let cutoffMoves = cutoffSmoother.isSmoothing, qMoves = qSmoother.isSmoothing
        guard cutoffMoves || qMoves else { return SVFCoefficientLanes(repeating: coefficients) }
        var g = SIMD4<Float>(repeating: coefficients.g), k = SIMD4<Float>(repeating: coefficients.k)
        if cutoffMoves { g = SVFCoefficients.prewarp(cutoffs: cutoffSmoother.nextFour(), inverseSampleRate: inverseSampleRate) }
        if qMoves { k = SVFCoefficients.damping(qs: qSmoother.nextFour()) }
        let lanes = SVFCoefficientLanes(g: g, k: k)
        coefficients = lanes[3]
        return lanes
    }

    /// `first.process(buffer, as: A.self)` and then `second.process(buffer, as: B.self)`, with the same
    /// result bit for bit, in one pass: sample n of `second` runs beside sample n + 1 of `first`.
    ///
    /// Why: each filter alone is bound by its feedback latency (a sample's state waits for the last one's),
    /// so two filters in series, one after the other, cost two latencies per sample; in one loop the CPU
    /// overlaps the two independent recursions. Pinned by `StateVariableFilterTests.seriesPassMatchesTwoPasses`.
    @inlinable
    public static func processSeries<A: SVFResponse, B: SVFResponse>(
        _ buffer: UnsafeMutableBufferPointer<Float>,
        first: inout StateVariableFilter, as firstResponse: A.Type,
        second: inout StateVariableFilter, as secondResponse: B.Type
    ) {
        guard let x = buffer.baseAddress else { return }
        let count = buffer.count
        // Local copies: stores through `buffer` could alias the callers' filters.
        var f = first, s = second
        if !f.isSmoothing && !s.isSmoothing {
            let cf = f.coefficients, cs = s.coefficients
            var sf = f.state, ss = s.state
            for i in 0..<count {
                let input = x[i]
                let (v1, v2) = sf.tick(input, cf)
                let middle = A.output(input: input, band: v1, low: v2, k: cf.k)
                let (w1, w2) = ss.tick(middle, cs)
                x[i] = B.output(input: middle, band: w1, low: w2, k: cs.k)
            }
            f.state = sf
            s.state = ss
        } else {
            var i = 0
            while i &+ 4 <= count {
                let lf = f.nextFourCoefficients(), ls = s.nextFourCoefficients()
                var sf = f.state, ss = s.state
                for lane in 0..<4 {
                    let cf = lf[lane], cs = ls[lane]
                    let input = x[i &+ lane]
                    let (v1, v2) = sf.tick(input, cf)
                    let middle = A.output(input: input, band: v1, low: v2, k: cf.k)
                    let (w1, w2) = ss.tick(middle, cs)
                    x[i &+ lane] = B.output(input: middle, band: w1, low: w2, k: cs.k)
                }
                f.state = sf
                s.state = ss
                i &+= 4
            }
            while i < count {
                x[i] = s.processSample(f.processSample(x[i], as: A.self), as: B.self)
                i &+= 1
            }
        }
        // As `process(_:as:)` does at the end of each filter's block.
        if !(f.state.ic1.isFinite && f.state.ic2.isFinite) { f.state.reset() }
        if !(s.state.ic1.isFinite && s.state.ic2.isFinite) { s.state.reset() }
        first = f
        second = s
    }
}
