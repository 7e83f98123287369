import Touchstone

/// One waveform of the tone-bank lanes as a type, so a voice loop generic over it is specialised per
/// waveform and the oscillator step inlines into the loop (a switch inside the loop keeps it a call).
protocol BankShape {
    static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float>
}

enum SineBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextSine() }
}

enum TriangleBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextTriangle() }
}

enum SawBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextSaw() }
}

enum SquareBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextSquare() }
}

enum PulseBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextPulse() }
}

enum ReverseSawBank: BankShape {
    @inline(__always) static func next(_ lanes: inout BandLimitedOscillatorLanes) -> SIMD8<Float> { lanes.nextReverseSaw() }
}
