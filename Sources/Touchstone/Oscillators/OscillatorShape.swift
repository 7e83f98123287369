/// A waveform as a type, for voice loops generic over it: the loop is specialised per waveform, so the
/// oscillator's per-sample step inlines into it, while the waveform is chosen once per block (a switch on
/// `Waveform` inside the loop would keep the step a call and spill the loop's registers around it).
///
///     func render<Shape: OscillatorShape>(_: Shape.Type, _ osc: inout BandLimitedOscillator, …) {
///         for i in … { buffer[i] = Shape.next(&osc) }
///     }
///     switch waveform { case .saw: render(SawShape.self, &osc, …) … }
public protocol OscillatorShape {
    /// The next sample of a scalar oscillator in this shape (ignores its `waveform`).
    static func next(_ oscillator: inout BandLimitedOscillator) -> Float
    /// The next sample of every lane in this shape (ignores the lanes' `waveform`).
    static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector
    /// `next(_:)` for lanes whose frequencies were set by `setFrequenciesDeferringResiduals(_:)`.
    static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector
}

/// `Waveform.sine` as a type.
public enum SineShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextSine() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextSine() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextSine()
    }
}

/// `Waveform.triangle` as a type.
public enum TriangleShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextTriangle() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextTriangle() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextTriangle(afterDeferredFrequencies: true)
    }
}

/// `Waveform.saw` as a type.
public enum SawShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextSaw() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextSaw() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextSaw(afterDeferredFrequencies: true)
    }
}

/// `Waveform.square` as a type.
public enum SquareShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextSquare() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextSquare() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextSquare(afterDeferredFrequencies: true)
    }
}

/// `Waveform.pulse` as a type.
public enum PulseShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextPulse() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextPulse() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextPulse(afterDeferredFrequencies: true)
    }
}

/// `Waveform.reverseSaw` as a type.
public enum ReverseSawShape: OscillatorShape {
    @inlinable @inline(__always)
    public static func next(_ oscillator: inout BandLimitedOscillator) -> Float { oscillator.nextReverseSaw() }
    @inlinable @inline(__always)
    public static func next(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector { lanes.nextReverseSaw() }
    @inlinable @inline(__always)
    public static func nextAfterDeferredFrequencies(_ lanes: inout BandLimitedOscillatorLanes) -> BandLimitedOscillatorLanes.Vector {
        lanes.nextReverseSaw(afterDeferredFrequencies: true)
    }
}
