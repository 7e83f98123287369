import ArgumentParser
import Ariel
import Foundation
import ProsperoJACK

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

    @OptionGroup(title: "JACK")
    var live: LiveSessionArguments

    func run() throws {
        let settings = try synth.settings()
        let engine = PolySynth(capacity: max(16, settings.polyphony), settings: settings)
        let handler = EngineProcessHandler(engine: engine)
        let monitor = ClockMonitor(handler: handler)
        monitor.start()
        defer { monitor.stop() }
        try live.run(handler: handler)
    }
}

/// Prints the MIDI clock tempo when it changes, polling the handler from a background thread
/// (the audio thread never prints).
private final class ClockMonitor: @unchecked Sendable {
    private let handler: EngineProcessHandler<PolySynth>
    private let stopped = NSCondition()
    private var isStopped = false
    private var thread: Thread?

    init(handler: EngineProcessHandler<PolySynth>) { self.handler = handler }

    func start() {
        let thread = Thread { [self] in
            var printed: Double?
            while true {
                stopped.lock()
                if !isStopped { _ = stopped.wait(until: Date(timeIntervalSinceNow: 0.25)) }
                let done = isStopped
                stopped.unlock()
                if done { return }
                if let bpm = handler.clockBPM, printed.map({ abs($0 - bpm) >= 0.5 }) ?? true {
                    print(String(format: "MIDI clock: %.1f BPM", bpm))
                    printed = bpm
                }
            }
        }
        self.thread = thread
        thread.start()
    }

    func stop() {
        stopped.lock()
        isStopped = true
        stopped.signal()
        stopped.unlock()
    }
}
