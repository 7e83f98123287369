import ArgumentParser
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoJACK

/// The JACK options of every live command (`prospero play` and later instruments):
/// `@OptionGroup var live: LiveSessionArguments`, then `try live.run(handler: synth)`.
public struct LiveSessionArguments: ParsableArguments {
    public init() {}

    @Option(name: [.short, .long], help: "JACK server name (default: $JACK_DEFAULT_SERVER, else \"default\").")
    public var server: String?

    @Option(name: .customLong("client-name"), help: "JACK client name; ports appear as NAME:out_left, NAME:midi_out …")
    public var clientName = "Prospero"

    @Flag(inversion: .prefixedNo, help: "Connect the outputs to the hardware playback ports (system:playback_1/2) when they exist.")
    public var connectAudio = true

    @Option(name: .customLong("midi-in"), help: "An output port whose MIDI Prospero receives (repeatable), e.g. a2j:keyboard.")
    public var midiIn: [String] = []

    @Option(name: .customLong("midi-out"), help: "An input port that receives Prospero's MIDI (repeatable), e.g. ardour:MIDI in.")
    public var midiOut: [String] = []

    @Option(help: "Stop after this many seconds (default: run until Ctrl-C).")
    public var duration: Double?

    @Flag(help: "When the JACK server goes away, wait for it and continue instead of exiting.")
    public var reconnect = false

    @Flag(name: .customLong("callback-timing"),
          help: "Time every JACK process callback (wall and CPU time, page faults, switches, its start in the server's cycle) and print the distribution and each xrun's cause when stopping; keeps the last \(Self.callbackTimingCapacity) callbacks.")
    public var callbackTiming = false

    /// Callbacks `--callback-timing` keeps: 136 s at 64-frame periods, 11 min at 256 (about 10 MB).
    public static let callbackTimingCapacity = 131_072

    public func validate() throws {
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, not \(duration)")
        }
    }

    public var options: LiveSessionOptions {
        LiveSessionOptions(
            client: JACKClient.Configuration(clientName: clientName, serverName: server),
            audioConnection: connectAudio ? .automatic : .never,
            midiInputSources: midiIn,
            midiOutputDestinations: midiOut,
            duration: nil,  // the command's LiveStop ends everything at the duration (LiveCommand.begin)
            reconnect: reconnect,
            handlesSignals: false,  // LiveCommand.begin installed them for the whole command
            callbackTimingCapacity: callbackTiming ? Self.callbackTimingCapacity : nil
        )
    }

    /// Plays `handler` live until `stop` (a signal, the duration, another part) or server shutdown.
    /// Exits non-zero (after saying why) when JACK is missing or unreachable, a port is unknown, or
    /// the server shut down; requests `stop` then too, so the command's other parts end.
    public func run(handler: any JACKProcessHandler, stop: LiveStop, inputClock: JACKInputClock? = nil,
             beforeFinalPeriod: (@Sendable () -> Void)? = nil,
             onGraphChange: (@Sendable (_ outputs: [String]) -> Void)? = nil) throws {
        let outcome: LiveSessionOutcome
        do {
            let session = LiveSession(handler: handler, options: options, stop: stop, log: { StandardOutput.line($0) },
                                      inputClock: inputClock, beforeFinalPeriod: beforeFinalPeriod, onGraphChange: onGraphChange)
            outcome = try session.run()
        } catch {
            stop.request(.failed("\(error)"))
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if !outcome.isClean { throw ExitCode.failure }
    }
}
