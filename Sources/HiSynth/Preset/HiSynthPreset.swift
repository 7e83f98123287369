/// One HiSynth sound: the values a preset string carries, in the original app's units.
///
/// Every number is stored as the `Float16` the preset string holds, so a decoded preset re-encodes
/// to the same bytes (−0.0 included). Values are not clamped here: a preset may hold finite values
/// outside the UI ranges (ten factory presets store a high-pass cutoff of 0); the engine clamps them
/// with the ranges declared on each part (`Oscillator.levelRange`, `Envelope.attackRange`, …).
///
/// `oscillators` always holds 2 layers and `lfos` 3 LFOs: the codec and the JSON reader reject any
/// other count, and `encoded()` throws on one.
public struct HiSynthPreset: Sendable, Hashable {
    /// The number of oscillator layers.
    public static let oscillatorCount = 2
    /// The number of LFOs.
    public static let lfoCount = 3

    /// The preset's name (any Unicode; the original's export asks for 1…24 characters but imports any).
    public var name: String
    /// The two oscillator layers, OSC1 then OSC2.
    public var oscillators: [Oscillator]
    /// The amplitude envelope shared by all 16 voices.
    public var envelope: Envelope
    /// The low-pass then high-pass filter.
    public var filters: Filters
    /// The three LFOs with their modulation-matrix routes.
    public var lfos: [LFO]
    /// Decimator, drive, delay and reverb.
    public var effects: Effects

    public init(name: String, oscillators: [Oscillator], envelope: Envelope, filters: Filters, lfos: [LFO], effects: Effects) {
        self.name = name
        self.oscillators = oscillators
        self.envelope = envelope
        self.filters = filters
        self.lfos = lfos
        self.effects = effects
    }
}
