/// Dual-motor rumble for game controllers (Gamepad API `dual-rumble`, SDL, Linux evdev `FF_RUMBLE`).
///
/// JSON shape (stable): `[{"start": s, "duration": s, "strong": 0…1, "weak": 0…1}, …]`.
///
/// The strong motor is the low, heavy one and the weak the high, light one, so sharpness chooses the
/// balance (a project heuristic, not a published rule): strong = I·(1−S), weak = I·S. The pattern is
/// sampled every 10 ms; neighbouring samples with the same magnitudes (to 1/1000) merge into one
/// segment; gaps are simply absent.
public struct RumbleTrack: Sendable, Hashable {
    public struct Segment: Sendable, Hashable {
        /// Seconds from the start.
        public var start: Double
        /// Seconds.
        public var duration: Double
        /// Strong (low-frequency) motor, 0…1.
        public var strong: Double
        /// Weak (high-frequency) motor, 0…1.
        public var weak: Double

        public init(start: Double, duration: Double, strong: Double, weak: Double) {
            self.start = start
            self.duration = duration
            self.strong = strong
            self.weak = weak
        }
    }

    /// Sampling step in seconds.
    public static let step = 0.01

    public var segments: [Segment]
    public var warnings: [HapticRenderWarning]

    public init(segments: [Segment], warnings: [HapticRenderWarning] = []) {
        self.segments = segments
        self.warnings = warnings
    }

    /// Renders a pattern.
    public init(_ pattern: HapticPattern) {
        let line = HapticTimeline(pattern, step: Self.step)
        var segments: [Segment] = []
        func q(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        var previousRunning = false
        for k in 0..<line.count {
            guard line.running[k] else { previousRunning = false; continue }
            let i = line.intensity[k], s = line.sharpness[k]
            let strong = q(i * (1 - s)), weak = q(i * s)
            let start = Double(k) * Self.step
            if previousRunning, let last = segments.last, last.strong == strong, last.weak == weak {
                segments[segments.count - 1].duration = RumbleTrack.q1(start + Self.step - last.start)
            } else {
                segments.append(Segment(start: RumbleTrack.q1(start), duration: Self.step, strong: strong, weak: weak))
            }
            previousRunning = true
        }
        var warnings: [HapticRenderWarning] = []
        if line.usesSharpness { warnings.append(.sharpnessApproximated) }
        if line.transientCount > 0 { warnings.append(.transientsLengthened(count: line.transientCount, length: HapticTimeline.transientLength)) }
        if line.audioEventCount > 0 { warnings.append(.audioEventsIgnored(count: line.audioEventCount)) }
        if line.usesEnvelopes { warnings.append(.envelopesIgnored) }
        if pattern.duration > HapticTimeline.maximumLength { warnings.append(.truncated(time: HapticTimeline.maximumLength, limit: "renderer limit")) }
        self.init(segments: segments, warnings: warnings)
    }

    /// Seconds rounded to a microsecond, so sums of 10 ms steps print cleanly.
    static func q1(_ t: Double) -> Double { (t * 1_000_000).rounded() / 1_000_000 }

    /// `[{"start", "duration", "strong", "weak"}, …]`.
    public func document() -> HapticJSON {
        .array(segments.map {
            .object([("start", .number($0.start)), ("duration", .number($0.duration)), ("strong", .number($0.strong)), ("weak", .number($0.weak))])
        })
    }

    /// The JSON text (pretty, final newline).
    public func json() -> String { document().encoded(indent: 2) + "\n" }
}
