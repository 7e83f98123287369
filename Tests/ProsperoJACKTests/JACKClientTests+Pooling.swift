/// The JACK timing tests judge events one by one and leave out the ones the machine disturbed; on a busy 2-core
/// machine one run may keep too few, so the undisturbed events of several runs (each a fresh server) are pooled.
extension JACKClientTests {
    /// Runs `measure` up to `runs` times, adding each run to the first with `merge`, until `count` of the pool
    /// reaches `wanted`; nil when even `runs` runs kept fewer (the caller records how many).
    static func pooledRuns<Run>(runs: Int, wanted: Int, count: (Run) -> Int, measure: () throws -> Run,
                                merge: (inout Run, Run) -> Void) rethrows -> (pool: Run?, enough: Bool) {
        var pooled: Run?
        for _ in 1...runs where (pooled.map(count) ?? 0) < wanted {
            let next = try measure()
            if pooled == nil { pooled = next } else { merge(&pooled!, next) }
        }
        return (pooled, (pooled.map(count) ?? 0) >= wanted)
    }
}
