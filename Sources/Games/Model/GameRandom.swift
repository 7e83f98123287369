import Horatio

/// The games' default random source: Horatio's SplitMix64, seeded so a scripted session replays exactly.
/// Any `RandomNumberGenerator` can be injected instead.
public typealias GameRandom = SplitMix64
