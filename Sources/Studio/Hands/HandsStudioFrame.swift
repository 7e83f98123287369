/// What the hands screen draws live, at up to 30 Hz: who plays which note, where the fingers and
/// hands are (screen space 0…1, origin top-left, y down: the fret lines' space), and the velocity dial's live mark.
public struct HandsStudioFrame: Sendable, Hashable {
    /// One sounding note of the router, by source.
    public struct Note: Sendable, Hashable {
        /// "touch" or "hand".
        public var kind: String
        public var slot: Int
        /// 1…16.
        public var channel: Int
        public var note: Int
        public var velocity: Int
    }

    /// One finger, from the pad or from an OSC touch sender.
    public struct Touch: Sendable, Hashable {
        public var slot: Int
        public var x: Double
        public var y: Double
        public var pressure: Double
        /// True for a page's finger, false for OSC.
        public var pad: Bool
    }

    /// One tracked hand from OSC: 21 landmarks (MediaPipe order), x and y only.
    public struct Hand: Sendable, Hashable {
        public var slot: Int
        /// "left", "right" or "unknown".
        public var handedness: String
        /// 21 points, each x, y in 0…1.
        public var landmarks: [SIMD2<Double>]
    }

    public var notes: [Note] = []
    public var touches: [Touch] = []
    public var hands: [Hand] = []
    /// Notes the synth holds, from its engine snapshot (empty when the synth is off or silent).
    public var synthNotes: [Int] = []
    /// The velocity dial's live mark, 0…1: the newest sounding note's velocity ÷ 127, 0 when nothing sounds
    /// (the needle is the dial's setting, `velocity` in the state).
    public var velocity: Double = 0
    /// The MIDI clock arriving at the audio driver (BPM), nil while none runs.
    public var clockBPM: Double?

    public init() {}
}
