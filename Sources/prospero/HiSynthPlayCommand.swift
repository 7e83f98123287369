import ArgumentParser
import Ariel
import Foundation
import HiSynth
import ProsperoJACK

/// `prospero hisynth play [--preset X] [--midi-in PORT] [SONG.mid]`: HiSynth live through JACK. MIDI
/// input plays it; a song plays and loops while the keyboard plays along. Stops as every live command
/// does (Ctrl-C, SIGTERM, --duration, or the server going away), with note-offs on the way out.
struct HiSynthPlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play HiSynth live through JACK from MIDI input, optionally with a looping song."
    )

    @Argument(help: "A Standard MIDI File to play (and loop) while MIDI input plays along.")
    var song: String?

    @Option(help: "Preset: a file (JSON or preset string), a preset name, or a preset string (default: HiSynth Key).")
    var preset: String?

    @Flag(inversion: .prefixedNo, help: "Loop the song.")
    var loop = true

    @Option(name: .customLong("tempo-scale"), help: "Play the song faster (> 1) or slower (< 1) than its tempo, 0.25…4.")
    var tempoScale: Double = 1

    @OptionGroup(title: "JACK")
    var live: LiveSessionArguments

    func validate() throws {
        guard tempoScale.isFinite, HiSynthSongPlayer.tempoScaleRange.contains(tempoScale) else {
            throw ValidationError("--tempo-scale must be 0.25…4, got \(tempoScale)")
        }
    }

    func run() throws {
        let stop = LiveCommand.begin(duration: live.duration)
        let chosen = try HiSynthLiveSupport.preset(preset)
        let parsed = try song.map { try HiSynthLiveSupport.song(at: $0) }
        let player = HiSynthSongPlayer(engine: HiSynthEngine(preset: chosen), song: parsed, playing: true, looping: loop)
        player.handle(.tempoScale(tempoScale))
        if let parsed {
            print("HiSynth: \(chosen.name), playing \(parsed.title) (\(String(format: "%.1f", parsed.duration)) s\(loop ? ", looping" : ""))")
        } else {
            print("HiSynth: \(chosen.name), playing from MIDI input")
        }
        // The limiter's look-ahead is reported to JACK as port latency, as `play` and `hecate` do.
        let handler = EngineProcessHandler(engine: player, latency: { player, _ in player.engine.latencySamples })
        try live.run(handler: handler, stop: stop)
    }
}
