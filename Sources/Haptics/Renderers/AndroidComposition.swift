/// An Android composition (API 30+: `VibrationEffect.startComposition().addPrimitive(id, scale, delayMs)`),
/// for patterns made only of transients, where primitives fit better than a waveform: the phone plays
/// its own tuned click for each tap.
///
/// JSON shape (stable): `{"primitives": [{"id": "CLICK", "scale": 0…1, "delay": ms}, …]}`. Android waits
/// `delay` ms after the previous primitive has finished; primitive lengths are the device's
/// (`getPrimitiveDurations`), so each delay is the gap between starts minus an assumed 20 ms primitive
/// (warning `primitiveLengthAssumed`).
///
/// Sharpness chooses the primitive (haptics.md §2): below 0.35 the low ones, THUD at intensity ≥ 0.5 and
/// LOW_TICK below; from 0.35 the high ones, CLICK at ≥ 0.5 and TICK below. Scale is the intensity.
/// Check `arePrimitivesSupported` on the phone; fall back to `AndroidWaveform` where they are not.
public struct AndroidComposition: Sendable, Hashable {
    public enum Primitive: String, Sendable, Hashable, CaseIterable {
        case click = "CLICK", thud = "THUD", tick = "TICK", lowTick = "LOW_TICK"
    }

    public struct Step: Sendable, Hashable {
        public var primitive: Primitive
        /// 0…1.
        public var scale: Double
        /// Milliseconds after the previous primitive's start (the first: after the effect starts).
        public var delay: Int
    }

    /// Sharpness from which the high primitives are used.
    public static let highSharpness = 0.35
    /// Assumed length of one primitive in milliseconds.
    public static let assumedPrimitiveLength = 20
    /// Intensity from which the strong primitive of each pair is used.
    public static let strongIntensity = 0.5

    public var steps: [Step]
    public var warnings: [HapticRenderWarning]

    /// The pattern as primitives, or nil when it holds continuous haptic events (use `AndroidWaveform`).
    public init?(_ pattern: HapticPattern) {
        let haptic = pattern.events.filter { $0.type.isHaptic }
        guard !haptic.isEmpty, haptic.allSatisfy({ $0.type == .hapticTransient }) else { return nil }
        var previous: Int?
        steps = haptic.sorted { $0.time < $1.time }.map { e in
            let i = pattern.intensity(of: e, at: e.time), s = pattern.sharpness(of: e, at: e.time)
            let primitive: Primitive = s < Self.highSharpness ? (i >= Self.strongIntensity ? .thud : .lowTick)
                                                             : (i >= Self.strongIntensity ? .click : .tick)
            let start = Int((e.time * 1000).rounded())
            defer { previous = start }
            let delay = previous.map { start - $0 - Self.assumedPrimitiveLength } ?? start
            return Step(primitive: primitive, scale: (i * 1000).rounded() / 1000, delay: max(0, delay))
        }
        warnings = [.sharpnessApproximated, .primitiveLengthAssumed(milliseconds: Self.assumedPrimitiveLength)]
        let audio = pattern.events.count - haptic.count
        if audio > 0 { warnings.append(.audioEventsIgnored(count: audio)) }
    }

    /// `{"primitives": [{"id", "scale", "delay"}, …]}`.
    public func document() -> HapticJSON {
        .object([("primitives", .array(steps.map {
            .object([("id", .string($0.primitive.rawValue)), ("scale", .number($0.scale)), ("delay", .number(Double($0.delay)))])
        }))])
    }

    /// The JSON text (pretty, final newline).
    public func json() -> String { document().encoded(indent: 2) + "\n" }
}
