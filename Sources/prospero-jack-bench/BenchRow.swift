import Foundation

/// One row of the bench's table: a figure at one period, its sample, and the targets it was checked against.
struct BenchRow {
    /// What was measured ("UDP → out_left, `hands --output both`").
    var figure: String
    var period: Int
    /// The sample: undisturbed events of those judged, with the causes of the rest.
    var sample: String
    var median: String
    /// Min … max, and any quantiles worth a look.
    var spread: String
    /// The same figure over every event, disturbed ones included: what the machine's load did to it.
    var allEvents: String = "—"
    var checks: [BenchCheck] = []
    /// Why the figure could not be measured (the row then misses its target).
    var failure: String?

    /// The targets missed (a failed measurement is one).
    var missed: [String] {
        if let failure { return ["not measured: \(failure)"] }
        return checks.filter { !$0.met }.map { "\($0.target) (measured \($0.measured))" }
    }

    static let header = """
        | figure | period | undisturbed events | median | spread | every event | targets | verdict |
        |---|---|---|---|---|---|---|---|
        """

    var markdown: String {
        let verdict = failure != nil ? "**not measured**" : checks.isEmpty ? "reported" : missed.isEmpty ? "met" : "**missed**: " + missed.joined(separator: "; ")
        let targets = checks.isEmpty ? "—" : checks.map(\.target).joined(separator: "; ")
        let cells = [figure, "\(period)", failure.map { "— (\($0))" } ?? sample, median, spread, allEvents, targets, verdict]
        return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }.joined(separator: " | ") + " |"
    }
}
