import ArgumentParser
import Ariel

/// `--bend-range` of the built-in synth for `prospero render` and `prospero play`, beside
/// ``PolySynthArguments`` (`prospero hands` has its own, shared with its router).
struct SynthBendRangeArguments: ParsableArguments {
    @Option(name: .customLong("bend-range"), help: "Pitch-bend range in semitones, 0…24.")
    var bendRange: Double = PolySynthSettings().pitchBendRange

    func validate() throws {
        guard bendRange.isFinite, (0...24).contains(bendRange) else {
            throw ValidationError("invalid synth setting: pitchBendRange must be 0…24, not \(bendRange)")
        }
    }
}
