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

/// The xruns of a command's runs as its `--callback-timing` account put them: how many in all, and how many its own
/// process callback caused (its CPU time over the period, or page faults in it).
struct XrunTally: Equatable, CustomStringConvertible {
    var ours: Int
    var all: Int

    static func + (a: XrunTally, b: XrunTally) -> XrunTally { XrunTally(ours: a.ours + b.ours, all: a.all + b.all) }

    /// Our callback's xruns are a small share of the machine's: at most one in twenty of all the runs saw.
    var oursAreFew: Bool { ours * 20 <= all }

    var description: String { "\(ours) of \(all) xruns from prospero's own callback" }
}

extension JACKClientTests {
    /// The xruns of the account `--callback-timing` prints when the command stops ("callback timing: xruns
    /// reported: N: …"); nil when it printed none.
    static func xrunTally(in output: String) -> XrunTally? {
        let prefix = "callback timing: xruns reported: "
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else { return nil }
        // "xruns reported: 3: 2 our work (…), 1 no callback of ours …": the count, then the causes, ", " between them.
        let fields = line.dropFirst(prefix.count).split(separator: ": ", maxSplits: 1)
        guard let all = fields.first.flatMap({ Int($0) }) else { return nil }
        var ours = 0
        for part in fields.dropFirst().first.map({ $0.components(separatedBy: ", ") }) ?? [] {
            let fields = part.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let n = Int(fields[0]) else { continue }
            if [JACKXrunCauses.Cause.ourWork, .pageFaults].map(\.description).contains(String(fields[1])) { ours += n }
        }
        return XrunTally(ours: ours, all: all)
    }

    /// The lines of the account itself ("callback timing: …"), for a failure's message.
    static func callbackTimingLines(in output: String) -> String {
        output.split(separator: "\n").filter { $0.hasPrefix("callback timing: ") }.joined(separator: "\n")
    }

    /// Adds two runs' tallies (unknown when either is).
    static func sum(_ a: XrunTally?, _ b: XrunTally?) -> XrunTally? { a.flatMap { a in b.map { a + $0 } } }

    /// Even the pooled runs kept too few undisturbed events. When the command's own account says that none of the
    /// xruns, or at most one in twenty of them (``XrunTally/oursAreFew``), came from its callback, the machine's
    /// load disturbed the events (threads waiting for a CPU, late periods, xruns of the server or of a callback
    /// not running): there is nothing to judge, and the test ends as cancelled, saying so. A few of ours among
    /// many are left to the benchmarks and `scripts/soak` because this VM's kernel has no IRQ time accounting
    /// (`CONFIG_IRQ_TIME_ACCOUNTING` unset): interrupts and softirqs (a build's disk, RCU, the network) count
    /// into whichever thread they interrupt, so a callback of 30 µs can read as a period of CPU time. Otherwise
    /// (more of ours, or no account) it is a failure.
    static func tooFewUndisturbed(_ message: String, xruns: XrunTally?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let xruns, xruns.ours == 0 || xruns.oursAreFew {
            let why = "\(message): the machine disturbed every other event (\(xruns)): nothing to judge on a machine this busy"
            try Test.cancel(Comment(rawValue: why), sourceLocation: sourceLocation)
        }
        let tally = xruns.map(String.init(describing:)) ?? "xruns from prospero's own callback not reported"
        Issue.record(Comment(rawValue: "\(message); \(tally)"), sourceLocation: sourceLocation)
    }
}
