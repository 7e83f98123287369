import ArgumentParser
import Foundation
import ProsperoJACK

/// `--input-delay` of the live instruments that play OSC input through JACK (`hands`, `hecate`).
public struct InputDelayArguments: ParsableArguments {
    public init() {}

    @Option(name: .customLong("input-delay"),
            help: "Fixed delay from an OSC packet's arrival to its sample in the output: frames (256) or periods (1p). Default 1p: the input thread's jitter becomes this fixed latency; less than a period makes events late (played at the next period's start).")
    public var inputDelay: String = "1p"

    public func validate() throws { _ = try delay() }

    public func delay() throws -> JACKInputClock.Delay {
        let text = inputDelay.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasSuffix("p"), let n = Int(text.dropLast()), (0...16).contains(n) { return .periods(n) }
        if let n = Int(text), (0...192_000).contains(n) { return .frames(n) }
        throw ValidationError("--input-delay must be frames 0…192000 (e.g. 256) or periods 0p…16p (e.g. 1p), not '\(inputDelay)'")
    }

    public func clock() throws -> JACKInputClock { JACKInputClock(delay: try delay()) }
}
