/// An Android `VibrationEffect.createWaveform(timings, amplitudes, repeat)` effect.
///
/// JSON shape (stable; the studio serves it as a download):
/// `{"timings": [ms…], "amplitudes": [0…255…], "repeat": -1}`: step k holds amplitude k for timing k
/// milliseconds; 0 is off; `repeat` −1 plays once.
///
/// Rendering (Lofelt's and haptify's rules): the pattern is sampled every 25 ms (steps shorter than
/// 25 ms cannot be felt apart), amplitude = round(I·255) and never 0 while an event is active (a 0
/// stops the motor, which breaks the timing; the quietest running step is 1); equal neighbours merge;
/// steps still shorter than 25 ms (a gap between events) merge into the step before them.
public struct AndroidWaveform: Sendable, Hashable {
    /// Shortest step in milliseconds.
    public static let minimumStep = 25

    public var timings: [Int]
    public var amplitudes: [Int]
    public var repeatIndex: Int = -1
    /// What the target could not play.
    public var warnings: [HapticRenderWarning]

    public init(timings: [Int], amplitudes: [Int], repeatIndex: Int = -1, warnings: [HapticRenderWarning] = []) {
        self.timings = timings
        self.amplitudes = amplitudes
        self.repeatIndex = repeatIndex
        self.warnings = warnings
    }

    /// Renders a pattern.
    public init(_ pattern: HapticPattern) {
        let stepSeconds = Double(Self.minimumStep) / 1000
        let line = HapticTimeline(pattern, step: stepSeconds)
        var timings: [Int] = [], amplitudes: [Int] = []
        for k in 0..<line.count {
            let a = line.running[k] ? max(1, Int((line.intensity[k] * 255).rounded())) : 0
            if let last = amplitudes.last, last == a { timings[timings.count - 1] += Self.minimumStep } else {
                timings.append(Self.minimumStep); amplitudes.append(a)
            }
        }
        // A trailing pause means nothing (the grid's last step can fall after the last event).
        while amplitudes.last == 0 { amplitudes.removeLast(); timings.removeLast() }
        // Every step is a whole number of 25 ms grid steps, so none is shorter than the minimum.
        var warnings: [HapticRenderWarning] = [.intensityQuantised(levels: 255)]
        if line.usesSharpness { warnings.append(.sharpnessDropped) }
        if line.transientCount > 0 { warnings.append(.transientsLengthened(count: line.transientCount, length: stepSeconds)) }
        if line.audioEventCount > 0 { warnings.append(.audioEventsIgnored(count: line.audioEventCount)) }
        if line.usesEnvelopes { warnings.append(.envelopesIgnored) }
        if pattern.duration > HapticTimeline.maximumLength { warnings.append(.truncated(time: HapticTimeline.maximumLength, limit: "renderer limit")) }
        self.init(timings: timings, amplitudes: amplitudes, warnings: warnings)
    }

    /// `{"timings": […], "amplitudes": […], "repeat": -1}`.
    public func document() -> HapticJSON {
        .object([
            ("timings", .array(timings.map { .number(Double($0)) })),
            ("amplitudes", .array(amplitudes.map { .number(Double($0)) })),
            ("repeat", .number(Double(repeatIndex))),
        ])
    }

    /// The JSON text (pretty, final newline).
    public func json() -> String { document().encoded(indent: 2) + "\n" }
}
