import ArgumentParser
import Ariel
import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import ProsperoCommandLine

/// `prospero play`: the built-in polyphonic synth live through JACK, played from MIDI input.
///
/// Connect a keyboard with `--midi-in a2j:keyboard` (or later with `jack_connect`). The session
/// prints its ports, sample rate, period and latency, then the tempo of an incoming MIDI clock
/// whenever it changes by 0.5 BPM or more.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play the built-in polyphonic synth live through JACK from MIDI input."
    )

    @OptionGroup(title: "Synth")
    var synth: PolySynthArguments
    @OptionGroup(title: "Synth")
    var bend: SynthBendRangeArguments

    @OptionGroup(title: "JACK")
    var live: LiveSessionArguments

    func run() throws {
        let settings = try synth.settings(bendRange: bend.bendRange)
        let stop = LiveCommand.begin(duration: live.duration)
        let engine = PolySynth(capacity: max(16, settings.polyphony), settings: settings)
        let handler = EngineProcessHandler(engine: engine, latency: { engine, _ in engine.latencySamples })
        ClockMonitor(handler: handler, stop: stop).start()
        try live.run(handler: handler, stop: stop)
    }
}

/// Prints the MIDI clock tempo when it changes, polling the handler from a background thread
/// (the audio thread never prints) until the command's stop.
private final class ClockMonitor: @unchecked Sendable {
    private let handler: EngineProcessHandler<PolySynth>
    private let stop: LiveStop

    init(handler: EngineProcessHandler<PolySynth>, stop: LiveStop) {
        self.handler = handler
        self.stop = stop
    }

    func start() {
        let thread = Thread { [self] in
            var printed: Double?
            while stop.wait(timeout: .milliseconds(250)) == nil {
                if let bpm = handler.clockBPM, printed.map({ abs($0 - bpm) >= 0.5 }) ?? true {
                    StandardOutput.line(String(format: "MIDI clock: %.1f BPM", bpm))
                    printed = bpm
                }
            }
        }
        thread.start()
    }
}
