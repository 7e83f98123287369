import ArgumentParser
import Ariel
import Foundation
import HiSynth
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import Synchronization
import ProsperoCommandLine

/// `prospero hisynth play [--preset X] [--midi-in PORT] [--learn KNOB] [SONG.mid]`: HiSynth live through
/// JACK. MIDI input plays it; a song plays and loops while the keyboard plays along; learned controllers
/// turn its knobs (the studio's rack's, `lp.cutoff` … `decimator.mix`). The sound starts from `--preset`,
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

    @Option(name: .customLong("tempo-scale"), help: "Play the song faster (> 1) or slower (< 1) than its tempo, 0.25…4.")
    var tempoScale: Double = 1

    @OptionGroup(title: "Settings")
    var settingsFile: SettingsArguments

    @OptionGroup(title: "MIDI learn")
    var learning: LearnArguments

    @OptionGroup(title: "JACK")
    var live: LiveSessionArguments

    /// How often the learner looks at the controllers JACK received (they wait in a lock-free ring).
    static let learnInterval: Duration = .milliseconds(5)

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
        var chosen = try HiSynthLiveSupport.preset(preset)
        if preset == nil, let text = saved.sections["hisynth"]?.object?["preset"]?.string {
            do { chosen = try HiSynthPreset(string: text) } catch {
                FileHandle.standardError.write(Data("prospero: settings: hisynth.preset: \(error.description)\n".utf8))
            }
        }
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
        // Learned controllers turn the rack's knobs on the learner's thread, the only one sending commands.
        let sound = Mutex(chosen)
        let knobs = bindings.filter { $0.parameter.hasPrefix("hisynth.") }
        let pump = MIDILearnPump(
            bindings: knobs, learning: learn,
            drain: { _ = handler.controlChanges.drain($0) },
            apply: { path, value in
                guard let control = HiSynthRackControl.byName[String(path.dropFirst("hisynth.".count))] else { return }
                let settings = sound.withLock { p -> HiSynthSettings? in
                    guard (try? control.set(.number(value), in: &p, path: path)) != nil else { return nil }
                    return HiSynthSettings(preset: p)
                }
                if let settings { handler.host.send(.engine(.apply(settings))) }
            },
            announce: { StandardOutput.line($0) })
        let learner = Thread {
            while !stop.isRequested {
                pump.pump()
                stop.wait(timeout: Self.learnInterval)
            }
        }
        learner.name = "MIDI learn"
        // Only when a knob can move: other instruments' bindings in the file have nothing to turn here.
        if !learn.isEmpty || !knobs.isEmpty { learner.start() }
        defer {
            var next = saved
            next.midi = MIDIControlLearn(bindings: saved.midi + pump.bindings).bindings
            var section = next.sections["hisynth"]?.object ?? [:]
            if let text = try? sound.withLock({ $0 }).encoded() { section["preset"] = .string(text) }
            next.sections["hisynth"] = .object(section)
            do { try settingsFile.saveIfAsked(next) } catch { FileHandle.standardError.write(Data("prospero: \(error)\n".utf8)) }
        }
        try live.run(handler: handler, stop: stop)
    }
}
