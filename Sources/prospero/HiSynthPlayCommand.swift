import ArgumentParser
import Ariel
import Enobarbus
import Foundation
import HiSynth
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import ProsperoCommandLine

/// `prospero hisynth play [--preset X] [--midi-in PORT] [--learn KNOB] [SONG.mid]`: HiSynth live through
/// JACK, driving the one HiSynth live adapter (``HiSynthLiveInstrument``, the studio's rack's too). MIDI
/// input plays it; a song plays and loops while the keyboard plays along; learned controllers turn its
/// knobs (the studio's rack's, `lp.cutoff` … `decimator.mix`); a MIDI clock on `midi_in` drives the song
/// (its tempo, announced; Start from the top, Stop, Continue). The sound starts from `--preset`,
/// else from the settings file's `hisynth` section (what the studio saved); `--save-settings` keeps the
/// sound as turned and the controllers learned. Stops as every live command does (Ctrl-C, SIGTERM,
/// --duration, or the server going away), with note-offs on the way out.
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

    @Option(name: .customLong("tempo-scale"), help: "Play the song faster (> 1) or slower (< 1) than its tempo, 0.25…4 (while no MIDI clock runs on midi_in).")
    var tempoScale: Double = 1

    @OptionGroup(title: "Settings")
    var settingsFile: SettingsArguments

    @OptionGroup(title: "MIDI learn")
    var learning: LearnArguments

    @OptionGroup(title: "JACK")
    var live: LiveSessionArguments

    func validate() throws {
        guard tempoScale.isFinite, HiSynthSongPlayer.tempoScaleRange.contains(tempoScale) else {
            throw ValidationError("--tempo-scale must be 0.25…4, got \(tempoScale)")
        }
        _ = try learning.paths(instrument: "hisynth")
    }

    func run() throws {
        let (saved, _) = settingsFile.load()
        let learn = try learning.paths(instrument: "hisynth")
        let bindings = saved.midi + (try learning.mappings())
        let stop = LiveCommand.begin(duration: live.duration)
        let parsed = try song.map { try HiSynthLiveSupport.song(at: $0) }
        let start = try HiSynthLiveSupport.preset(preset)
        let engine = HiSynthRackEngine(settings: HiSynthSettings(preset: start), songs: parsed.map { [$0] } ?? [])
        // The limiter's look-ahead is reported to JACK as port latency, as `play` and `hecate` do.
        let handler = EngineProcessHandler(engine: engine, latency: { rack, _ in rack.latencySamples })
        // The one HiSynth adapter (the studio's rack drives it too): the sound, the song, the MIDI clock. Set up
        // here, then handed to the MIDI-in thread below, which alone uses it until it ends.
        nonisolated(unsafe) let instrument = HiSynthLiveInstrument(host: handler.host, preset: start, clock: handler.clock,
                                               announce: { StandardOutput.line($0) })
        // The sound starts from --preset, else from the settings file's `hisynth` section (what the studio saved).
        if let section = saved.sections["hisynth"] {
            for refused in instrument.restoreSettings(section) where preset == nil || !refused.hasPrefix("hisynth.preset") {
                FileHandle.standardError.write(Data("prospero: settings: \(refused)\n".utf8))
            }
            if preset != nil { instrument.changeSound(to: start) }
        }
        instrument.loop(loop)
        instrument.scaleTempo(tempoScale)
        let chosen = instrument.preset
        if let parsed {
            instrument.play(true)
            print("HiSynth: \(chosen.name), playing \(parsed.title) (\(String(format: "%.1f", parsed.duration)) s\(loop ? ", looping" : ""))")
        } else {
            print("HiSynth: \(chosen.name), playing from MIDI input")
        }
        // Learned controllers turn the rack's knobs, and the clock's tempo and transport drive the song, on one
        // thread that sleeps until the audio thread rings for a control change or a clock message (the only
        // thread that sends the engine's commands once the session runs).
        let knobs = bindings.filter { $0.parameter.hasPrefix("hisynth.") }
        let pump = MIDILearnPump(
            bindings: knobs, learning: learn,
            drain: { _ = handler.controlChanges.drain($0) },
            apply: { path, value in instrument.turn(path, to: value) },
            announce: { StandardOutput.line($0) })
        let ended = LiveStop()
        let doorbell = handler.midiArrived
        stop.onRequest { doorbell.ring() }
        let midiIn = Thread {
            while !stop.isRequested {
                // Every half second without MIDI too: a clock that stopped coming is noticed (HiSynthLiveInstrument.clockTimeout).
                doorbell.wait(timeout: HiSynthLiveInstrument.clockTimeout)
                pump.pump()
                instrument.advance(to: MonotonicClock.now())
            }
            ended.request(.requested)
        }
        midiIn.name = "MIDI in"
        midiIn.start()
        defer {
            _ = ended.wait(timeout: .seconds(2))
            var next = saved
            next.midi = MIDIControlLearn(bindings: saved.midi + pump.bindings).bindings
            var section = next.sections["hisynth"]?.object ?? [:]
            // The sound as played; the octave is the studio keyboard's (this command has none), kept as the file has it.
            if let sound = instrument.savedSettings()?.object?["preset"] { section["preset"] = sound }
            next.sections["hisynth"] = .object(section)
            do { try settingsFile.saveIfAsked(next) } catch { FileHandle.standardError.write(Data("prospero: \(error)\n".utf8)) }
        }
        try live.run(handler: handler, stop: stop)
    }
}
