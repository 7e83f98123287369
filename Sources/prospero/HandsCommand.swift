import Ariel
import ArgumentParser
import Enobarbus
import Foundation
import Horatio
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import Prospero
import ProsperoJACK
import ProsperoCommandLine

/// `prospero hands`: hands and touches over OSC play notes and MIDI live through JACK, or a
/// recording becomes a MIDI file offline.
struct HandsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hands",
        abstract: "Hands and touches play notes and MIDI (live over OSC and JACK, or from a recording).",
        discussion: """
            Height picks the note: the zones are the scale's notes in the note range, lowest at the \
            bottom. x → CC 74, extended fingers (touch pressure) → CC 11, optional depth → another CC, \
            optional pitch bend inside a zone. MIDI goes out of JACK port Prospero:midi_out.
            Offline: prospero hands --input take.jsonl --midi-out take.mid
            """
    )

    enum Output: String, ExpressibleByArgument, CaseIterable { case midi, synth, both }
    enum DepthChoice: String, ExpressibleByArgument, CaseIterable { case palm, pinch }

    // Input
    @Option(help: "Play this Enobarbus recording offline instead of listening (write it with --midi-out FILE).")
    var input: String?
    @OptionGroup(title: "Live input") var network: LiveInputArguments
    @OptionGroup(title: "Live input") var timing: InputDelayArguments
    @Option(help: "Seconds without frames after which a hand or touch is lost (its note ends).") var timeout: Double = 0.25
    @Flag(inversion: .prefixedNo, help: "Smooth positions (EMA + velocity clamp).") var stabilize = true

    // Notes
    // Options that the settings file can give are optional here: one given overrides the file (see `fill(from:)`).
    @Option(name: .customLong("key"), help: "Key: C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B (default C).") var keyOption: String?
    @Option(name: .customLong("scale"), help: "Scale: \(Scale.allCases.map(\.rawValue).joined(separator: ", ")) (default majorPentatonic).") var scaleOption: String?
    @Option(name: .customLong("low"), help: "Lowest note (MIDI number or name, C4 = 60; default C3).") var lowOption: String?
    @Option(name: .customLong("high"), help: "Highest note (MIDI number or name; default C5).") var highOption: String?
    var key: String { keyOption ?? "C" }
    var scale: String { scaleOption ?? Scale.majorPentatonic.rawValue }
    var low: String { lowOption ?? "C3" }
    var high: String { highOption ?? "C5" }
    @Option(help: "Hysteresis at zone boundaries, fraction of a zone 0…0.5.") var hysteresis = 0.25

    // Channels
    @Option(name: .customLong("channel"), help: "MIDI channel 1…16 for every hand and touch (default 1).") var channelOption: Int?
    var channel: Int { channelOption ?? 1 }
    @Option(name: .customLong("per-hand-channels"), help: "Four channels for slots 0…3, e.g. 1,2,3,4 (hand and touch i share).")
    var perHandChannels: String?
    @Flag(help: "MPE lower zone: manager channel 1, one member channel per hand or touch.") var mpe = false
    @Option(help: "MPE member channels 1…15.") var mpeMembers = 15

    // Controllers
    @Option(name: .customLong("x-cc"), help: "CC for horizontal position (-1: none).") var xCC = 74
    @Option(name: .customLong("expression-cc"), help: "CC for hand openness / touch pressure (-1: none).") var expressionCC = 11
    @Option(name: .customLong("depth-cc"), help: "CC for depth (-1: none).") var depthCC = -1
    @Option(help: "Hand depth from: palm (size, nearer = more) or pinch.") var depth: DepthChoice = .palm
    @Flag(name: .customLong("bend"), inversion: .prefixedNo, help: "Continuous pitch bend inside a zone (always on with --mpe).") var bendOption: Bool?
    var bend: Bool { bendOption ?? false }
    @Option(help: "Pitch-bend range in semitones, sent to the receiver (RPN 0) and set on the built-in synth (default 2; 48 with --mpe, 24 with --mpe and the synth, which bends at most 24).")
    var bendRange: Int?
    @Option(help: "Velocity from: fingers, speed, depth, or a fixed number 1…127.") var velocity = "fingers"
    @Option(help: "Most messages per second per controller.") var rateLimit = 150.0

    // Output
    @Option(name: .customLong("output"), help: "midi (JACK MIDI out, default), synth (built-in synth), or both.") var outputOption: Output?
    var output: Output { outputOption ?? .midi }
    @Option(help: "Offline: also render the performance to this WAV file (needs the built-in synth).")
    var wavOut: String?
    @OptionGroup(title: "Synth (with --output synth or both, and --wav-out)") var synth: PolySynthArguments
    @OptionGroup var live: LiveSessionArguments
    @OptionGroup(title: "Settings") var settingsFile: SettingsArguments
    @OptionGroup(title: "MIDI learn") var learning: LearnArguments

    /// Whether the built-in synth plays: live with `--output synth|both`, offline with `--wav-out`.
    var usesSynth: Bool { input == nil ? output != .midi : wavOut != nil }

    func validate() throws {
        let router = try settings()
        _ = try synthSettings(router)
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be positive") }
        _ = try learning.paths(instrument: "hands")
        if !learning.controls.isEmpty && input != nil {
            throw ValidationError("--learn listens on JACK midi_in: it is for live play (without --input)")
        }
        if input != nil && live.midiOut.count != 1 {
            throw ValidationError("with --input, give exactly one --midi-out FILE for the performance's MIDI file")
        }
    }

    static func note(_ text: String, _ option: String) throws -> Int {
        if let n = Int(text) { return n }
        guard let pitch = try? Pitch(parsing: text) else { throw ValidationError("\(option): '\(text)' is not a note (e.g. 60 or C4)") }
        return pitch.midiNoteNumber
    }

    func settings() throws -> MIDIRouterSettings {
        guard let key = MusicalKey(key) else { throw ValidationError("--key: unknown key '\(key)'") }
        guard let scale = Scale(rawValue: scale) else {
            throw ValidationError("--scale: unknown scale '\(scale)'; choose one of \(Scale.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let channels: MIDIRouterSettings.ChannelAssignment
        if mpe {
            channels = .mpe(memberChannels: mpeMembers)
        } else if let perHandChannels {
            let list = perHandChannels.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard list.allSatisfy({ $0 != nil }) else { throw ValidationError("--per-hand-channels: numbers 1…16, e.g. 1,2,3,4") }
            channels = .perSlot(channels: list.map { $0! })
        } else {
            channels = .shared(channel: channel)
        }
        let velocitySource: MIDIRouterSettings.VelocitySource
        switch velocity {
        case "fingers": velocitySource = .fingerCount
        case "speed": velocitySource = .verticalSpeed(fullScale: 2)
        case "depth": velocitySource = .depth
        default:
            guard let v = Int(velocity) else { throw ValidationError("--velocity: fingers, speed, depth or 1…127, not '\(velocity)'") }
            velocitySource = .fixed(v)
        }
        let settings = MIDIRouterSettings(
            key: key, scale: scale, lowestNote: try Self.note(low, "--low"), highestNote: try Self.note(high, "--high"),
            channels: channels, hysteresis: hysteresis,
            horizontalController: xCC < 0 ? nil : xCC, expressionController: expressionCC < 0 ? nil : expressionCC,
            depthController: depthCC < 0 ? nil : depthCC, depthSource: depth == .palm ? .palmSize : .pinch,
            bendWithinZone: bend, bendRange: bendRange ?? (mpe && usesSynth ? 24 : nil), velocity: velocitySource, controllerRateLimit: rateLimit)
        do { try settings.validate() } catch { throw ValidationError("invalid setting: \(error)") }
        return settings
    }

    /// The synth options with the router's bend range, so that a bend inside a zone sounds in tune.
    func synthSettings(_ router: MIDIRouterSettings) throws -> PolySynthSettings {
        if usesSynth && router.bendRange > 24 {
            throw ValidationError("--bend-range \(router.bendRange): the built-in synth bends at most 24 semitones")
        }
        return try synth.settings(bendRange: Double(min(router.bendRange, 24)))
    }

    /// The built-in synth (Ariel's PolySynth) as the audio side of the live handler.
    /// Its limiter's look-ahead is reported to JACK as port latency and printed, as `play` does.
    static func builtInSynth(_ settings: PolySynthSettings) -> any QueuedMIDIAudioRenderer {
        EngineHostRenderer(engine: PolySynth(capacity: max(16, settings.polyphony), settings: settings),
                           latency: { engine, _ in engine.latencySamples })
    }

    func run() throws {
        let (saved, found) = settingsFile.load()
        let mapped = try learning.mappings()
        var me = self
        if found { me.fill(from: saved.hands) }
        let settings = try me.settings()
        _ = try me.synthSettings(settings)
        var next = saved
        next.hands = me.studioSettings(settings, over: saved.hands)
        if let input {
            try me.runOffline(input, settings)
            next.midi = MIDIControlLearn(bindings: saved.midi + mapped).bindings
        } else {
            next.midi = try me.runLive(settings, bindings: saved.midi + mapped)
        }
        try settingsFile.saveIfAsked(next)
    }

    /// Options not given on the command line take the settings file's values (the same the studio's
    /// hands screen shows). The synth's sound keeps the synth options (the panel's is the studio's).
    mutating func fill(from file: HandsStudioSettings) {
        keyOption = keyOption ?? file.key.description
        scaleOption = scaleOption ?? file.scale.rawValue
        lowOption = lowOption ?? String(file.lowestNote)
        highOption = highOption ?? String(file.highestNote)
        bendOption = bendOption ?? file.bend
        bendRange = bendRange ?? file.bendRange
        outputOption = outputOption ?? Output(rawValue: file.output.rawValue)
        guard channelOption == nil, perHandChannels == nil, !mpe else { return }
        switch file.channelMode {
        case .single: channelOption = file.channel
        case .perHand: perHandChannels = file.handChannels.map(String.init).joined(separator: ",")
        case .mpe: mpe = true
        }
    }

    /// The settings in effect as the studio's hands settings (for `--save-settings`); `base` when
    /// they are beyond what the screen can show.
    func studioSettings(_ router: MIDIRouterSettings, over base: HandsStudioSettings) -> HandsStudioSettings {
        var h = base
        h.key = router.key
        h.scale = router.scale
        h.lowestNote = router.lowestNote
        h.highestNote = router.highestNote
        switch router.channels {
        case .shared(let c): h.channelMode = .single; h.channel = c
        case .perSlot(let cs):
            h.channelMode = .perHand
            h.channel = cs.first ?? 1
            h.handChannels = cs
        case .mpe: h.channelMode = .mpe
        }
        h.bend = router.bendWithinZone
        h.bendRange = min(24, max(1, router.bendRange))
        h.output = HandsOutput(rawValue: output.rawValue) ?? base.output
        return (try? h.validate()) == nil ? base : h
    }

    func runOffline(_ path: String, _ settings: MIDIRouterSettings) throws {
        let recording = try RecordingFile.load(path)
        let performance = try HandsPerformance(recording: recording, settings: settings, stabilizes: stabilize, timeout: timeout)
        let file = live.midiOut[0]
        let midiBytes = try performance.midiFile().encoded()
        try Data(midiBytes).write(to: URL(fileURLWithPath: file))
        let notes = performance.messages.filter { if case .noteOn = $0.message { return true } else { return false } }.count
        print("\(path): \(recording.frames.count) frames → \(performance.messages.count) MIDI messages (\(notes) notes) → \(file)")
        if let wavOut {
            // The performance's own MIDI file through the built-in synth: what --output synth plays live.
            // Streamed to the file; refused before rendering when longer than the 4-hour limit.
            let sink = try FileWAVSink(path: wavOut)
            do {
                let summary = try PolySynthSongRender.render(midiFile: midiBytes, settings: try synthSettings(settings), to: sink).summary
                try sink.close()
                print("\(wavOut): \(summary)")
            } catch {
                sink.discard()
                throw ValidationError("\(wavOut): \(error)")
            }
        }
    }

    /// Plays live; returns the MIDI bindings in effect at the end (the given ones and any learned).
    func runLive(_ settings: MIDIRouterSettings, bindings: [MIDIBinding<String>]) throws -> [MIDIBinding<String>] {
        let learn = try learning.paths(instrument: "hands")
        let stop = LiveCommand.begin(duration: live.duration)
        let synthSettings = try synthSettings(settings)
        let handler = QueuedMIDIHandler(sendsMIDI: output != .synth, audio: output != .midi ? Self.builtInSynth(synthSettings) : nil)
        let performer = try HandsPerformer(settings: settings, stabilizes: stabilize, timeout: timeout)
        // MIDI caused by a packet is due its arrival frame + the input delay, at that sample of midi_out and the synth.
        let inputClock = try timing.clock()
        let hands = HandsLiveInstrument(performer: performer, output: handler, clock: QueuedMIDIClock(handler: handler),
                                        frameClock: inputClock, announce: { StandardOutput.line($0) })
        // Learned controllers move the synth panel's controls (the synth smooths them), on the host's thread.
        let synth = handler.audio as? EngineHostRenderer<PolySynth>
        let panel = SynthPanelState(synthSettings)
        let instrument = LiveLearning(
            base: hands, bindings: bindings, learning: learn, drain: { handler.controlChanges.drain($0) },
            apply: { path, value in
                guard let synth, path.hasPrefix("hands.synth."), let control = HandsSynthControl.named(String(path.dropFirst(12))),
                      let command = try? control.apply(.number(value), to: &panel.settings) else { return }
                synth.host.send(command)
            },
            announce: { StandardOutput.line($0) })
        let options = try network.hostOptions()
        let host = LiveHost(source: network.source(), instrument: instrument, stop: stop, options: options, sink: try network.sink())
        do { try host.start() } catch {
            throw ValidationError("cannot listen on udp \(network.host):\(network.port): \(error)")
        }
        StandardOutput.line("prospero hands: OSC on udp \(host.source.localAddress), accepting \(options.allow)\(network.outputsBanner); "
            + "\(settings.key) \(settings.scale.displayName) \(settings.lowestNote)…\(settings.highestNote), "
            + "\(FretLayout(settings).zoneCount) zones (Ctrl-C to stop)")
        let input = LiveCommand.HostThread(host) { status in
            if status.refused > 0 || status.dropped > 0 { StandardOutput.line(status.countersLine) }
        }
        defer {
            StandardOutput.line(LiveCommand.summary(stop.reason, input.waitUntilFinished()?.success)
                + ", MIDI dropped \(handler.droppedCount), late \(handler.lateCount)")
        }
        // The performer's note-offs are queued before JACK's final period sends them (and CC 123).
        try live.run(handler: handler, stop: stop, inputClock: inputClock, beforeFinalPeriod: { input.waitUntilFinished() })
        return instrument.bindings
    }

    /// The synth panel a learned controller moves (one thread: the live host's).
    final class SynthPanelState: @unchecked Sendable {
        var settings: PolySynthSettings
        init(_ settings: PolySynthSettings) { self.settings = settings }
    }
}
