import Foundation
import ProsperoJACK
import Testing

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

extension JACKClientTests {
    /// Xruns the command's own process callback caused (its CPU time over the period, or page faults in it), from
    /// the account `--callback-timing` prints when it stops ("callback timing: xruns reported: N: …"); nil when it
    /// printed none.
    static func xrunsOfOurs(in output: String) -> Int? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("callback timing: xruns reported: ") }) else {
            return nil
        }
        // "xruns reported: 3: 2 our work (…), 1 no callback of ours …": the causes after the count, ", " between them.
        let causes = line.dropFirst("callback timing: xruns reported: ".count).split(separator: ": ", maxSplits: 1).dropFirst().first
        var ours = 0
        for part in causes.map({ $0.components(separatedBy: ", ") }) ?? [] {
            let fields = part.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let n = Int(fields[0]) else { continue }
            if [JACKXrunCauses.Cause.ourWork, .pageFaults].map(\.description).contains(String(fields[1])) { ours += n }
        }
        return ours
    }

    /// Adds two runs' counts of ``xrunsOfOurs(in:)`` (unknown when either is).
    static func sum(_ a: Int?, _ b: Int?) -> Int? { a.flatMap { a in b.map { a + $0 } } }

    /// Even the pooled runs kept too few undisturbed events. When the command's own account says none of the xruns
    /// came from its callback, every disturbance was the machine's (its load: threads waiting for a CPU, late
    /// periods, xruns of the server or of a callback not running): there is nothing to judge, and the test ends
    /// as cancelled, saying so. Otherwise (an xrun of ours, or no account) it is a failure.
    static func tooFewUndisturbed(_ message: String, xrunsOfOurs: Int?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if xrunsOfOurs == 0 {
            let why = "\(message): the machine disturbed every other event and none of its xruns came from prospero's own "
                + "callback (--callback-timing): nothing to judge on a machine this busy"
            try Test.cancel(Comment(rawValue: why), sourceLocation: sourceLocation)
        }
        let ours = xrunsOfOurs.map(String.init) ?? "not reported"
        Issue.record(Comment(rawValue: "\(message); xruns from prospero's own callback: \(ours)"), sourceLocation: sourceLocation)
    }
}
