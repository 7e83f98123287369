/// A table printed as GitHub Markdown, so scripts/bench/compare and the README take it verbatim.
struct MarkdownTable {
    var title: String
    var header: [String]
    var rows: [[String]] = []

    var markdown: String {
        var lines = ["**\(title)**", "", "| " + header.joined(separator: " | ") + " |",
                     "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Formats a rate with a unit prefix: 2 345 678 → "2.35 M".
func scaled(_ value: Double) -> String {
    if value >= 1e9 { return String(format: "%.2f G", value / 1e9) }
    if value >= 1e6 { return String(format: "%.2f M", value / 1e6) }
    if value >= 1e3 { return String(format: "%.1f k", value / 1e3) }
    return String(format: "%.1f", value)
}

/// Repeats `body` until at least `seconds` of CPU time have passed (after one warm-up call) and
/// returns the CPU seconds and the number of calls.
func repeatForCPU(seconds: Double, _ body: () -> Void) -> (cpu: Double, calls: Int) {
    body()
    var calls = 0
    let start = cpuSeconds()
    var elapsed = 0.0
    repeat {
        body()
        calls += 1
        elapsed = cpuSeconds() - start
    } while elapsed < seconds
    return (elapsed, calls)
}
