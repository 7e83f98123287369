import ArgumentParser
import Foundation
import ProsperoJACK

/// `--input-delay` of the live instruments that play OSC input through JACK (`hands`, `hecate`, the studio).
public struct InputDelayArguments: ParsableArguments {
    public init() {}

    /// The default as written on the command line: one period and the measured margin (docs/latency.md).
    public static let defaultText = "1p+\(JACKInputClock.Delay.defaultMarginFrames)"

    @Option(name: .customLong("input-delay"),
            help: "Fixed delay from an OSC packet's arrival to its sample in the output: frames (256), periods (1p) or both (1p+\(JACKInputClock.Delay.defaultMarginFrames)). Default \(InputDelayArguments.defaultText): a period, the least that keeps a packet arriving just after a period's start on time, and \(JACKInputClock.Delay.defaultMarginFrames) frames for the input threads' own time, measured at 64, 128 and 256 frames; the input thread's jitter becomes this fixed latency. Less makes some packets late (played at the next period's start, counted as late commands).")
    public var inputDelay: String = InputDelayArguments.defaultText

    public func validate() throws { _ = try delay() }

    public func delay() throws -> JACKInputClock.Delay {
        let text = inputDelay.trimmingCharacters(in: .whitespaces).lowercased()
        func periods(_ s: Substring) -> Int? {
            guard s.hasSuffix("p"), let n = Int(s.dropLast().trimmingCharacters(in: .whitespaces)), (0...16).contains(n) else { return nil }
            return n
        }
        func frames(_ s: Substring) -> Int? {
            guard let n = Int(s.trimmingCharacters(in: .whitespaces)), (0...192_000).contains(n) else { return nil }
            return n
        }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        if parts.count == 1, let p = periods(parts[0]) { return .periods(p) }
        if parts.count == 1, let n = frames(parts[0]) { return .frames(n) }
        if parts.count == 2, let p = periods(parts[0]), let n = frames(parts[1]) { return .periodsAndFrames(periods: p, frames: n) }
        throw ValidationError("--input-delay must be frames 0…192000 (e.g. 256), periods 0p…16p (e.g. 1p) or periods and frames (e.g. \(Self.defaultText)), not '\(inputDelay)'")
    }

    public func clock() throws -> JACKInputClock { JACKInputClock(delay: try delay()) }
}
