/// A Web Vibration API pattern for `navigator.vibrate([on, off, on, …])` (milliseconds, alternating,
/// starting with on).
///
/// JSON shape (stable): `{"pattern": [ms…]}`.
///
/// The API is on/off only, so intensity becomes pulse width: the pattern is cut into windows of 20,
/// 30, 40 or 50 ms (the shortest that fits Chromium's 99 entries) and in each window the motor runs for
/// round(I × window) ms, rounded to whole milliseconds; a running window below 1 ms still gets 1 ms.
/// Neighbouring on or off spans merge, so a steady full-intensity vibration is one entry. Entries are
/// at most 10 000 ms (longer spans are split by a 0 ms entry of the other kind). A pattern that does not
/// fit 99 entries even at 50 ms windows is cut at the last whole entry that fits (warning).
public struct WebVibrationPattern: Sendable, Hashable {
    /// Chromium's limits: entries per pattern, milliseconds per entry.
    public static let maximumEntries = 99
    public static let maximumEntryMilliseconds = 10_000
    /// Pulse-width windows tried, shortest first (ms).
    public static let windows = [20, 30, 40, 50]

    public var pattern: [Int]
    public var warnings: [HapticRenderWarning]

    public init(pattern: [Int], warnings: [HapticRenderWarning] = []) {
        self.pattern = pattern
        self.warnings = warnings
    }

    /// Renders a pattern.
    public init(_ pattern: HapticPattern) {
        var chosen: (entries: [Int], window: Int, line: HapticTimeline)?
        for window in Self.windows {
            let line = HapticTimeline(pattern, step: Double(window) / 1000)
            let entries = Self.entries(line, window: window)
            chosen = (entries, window, line)
            if entries.count <= Self.maximumEntries { break }
        }
        guard let chosen else { self.init(pattern: []); return }
        var entries = chosen.entries
        var warnings: [HapticRenderWarning] = []
        if chosen.line.intensity.enumerated().contains(where: { chosen.line.running[$0.offset] && $0.element < 1 }) {
            warnings.append(.intensityAsPulseWidth(window: Double(chosen.window) / 1000))
        }
        if chosen.line.usesSharpness { warnings.append(.sharpnessDropped) }
        if chosen.line.audioEventCount > 0 { warnings.append(.audioEventsIgnored(count: chosen.line.audioEventCount)) }
        if chosen.line.usesEnvelopes { warnings.append(.envelopesIgnored) }
        if pattern.duration > HapticTimeline.maximumLength { warnings.append(.truncated(time: HapticTimeline.maximumLength, limit: "renderer limit")) }
        if entries.count > Self.maximumEntries {
            entries = Array(entries.prefix(Self.maximumEntries))
            // End on an "on" entry: a trailing pause means nothing.
            if entries.count % 2 == 0 { entries.removeLast() }
            let kept = Double(entries.reduce(0, +)) / 1000
            warnings.append(.truncated(time: kept, limit: "99 entries"))
        }
        self.init(pattern: entries, warnings: warnings)
    }

    static func entries(_ line: HapticTimeline, window: Int) -> [Int] {
        // Alternating spans, starting with "on" (an initial pause is a 0 ms on).
        var spans: [Int] = []
        var on = true
        var current = 0
        func add(_ ms: Int, on wantOn: Bool) {
            guard ms > 0 else { return }
            if wantOn != on { spans.append(current); current = 0; on = wantOn }
            current += ms
        }
        for k in 0..<line.count {
            let onMs = line.running[k] ? max(1, Int((line.intensity[k] * Double(window)).rounded())) : 0
            add(onMs, on: true)
            add(window - onMs, on: false)
        }
        if on { spans.append(current) } else if current > 0 { spans.append(current) }
        // Drop a trailing pause.
        if spans.count % 2 == 0 { spans.removeLast() }
        if spans == [0] { return [] }
        // Split entries over 10 s.
        var out: [Int] = []
        for span in spans {
            var rest = span
            while rest > maximumEntryMilliseconds {
                out.append(maximumEntryMilliseconds)
                out.append(0)
                rest -= maximumEntryMilliseconds
            }
            out.append(rest)
        }
        return out
    }

    /// `{"pattern": […]}`.
    public func document() -> HapticJSON { .object([("pattern", .array(pattern.map { .number(Double($0)) }))]) }

    /// The JSON text (pretty, final newline).
    public func json() -> String { document().encoded(indent: 2) + "\n" }
}
