import ArgumentParser
import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import Touchstone
import ProsperoCommandLine

/// `prospero hecate`: the face-controlled chord synthesizer.
///
/// Live: face frames over OSC (any sender Enobarbus understands) → `HecatePerformance` → commands
/// through `EngineHost` → JACK; with `--midi` (or `--midi-out PORT`) what it sounds also goes out of
/// `midi_out` as MIDI (`HecateMIDIMap`). Offline: `--input RECORDING -o OUT.wav` renders a recorded face
/// performance through the same engine and commands (and `--midi-out FILE.mid` its MIDI).
struct HecateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hecate",
        abstract: "Your face plays chords: live from OSC face tracking through JACK, or a recording to WAV.",
        discussion: HecateCommand.mappingGuide
    )

    @OptionGroup var sound: HecateSoundOptions

    @Option(name: .shortAndLong, help: "Offline: a face recording (Enobarbus JSON Lines, e.g. examples/face-performance.jsonl).")
    var input: String?

    @Option(name: .shortAndLong, help: "Offline: output WAV file (default out/hecate-PACK.wav).")
    var output: String?

    @Option(help: "Offline: sample rate in Hz (8000…192000).")
    var sampleRate: Int = 48_000

    @Option(help: "Offline: sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm24.rawValue

    @Option(name: .customLong("max-duration"), help: "Offline: longest recording rendered, in seconds (default 14400: 4 hours).")
    var maxDuration: Double = OfflineRenderOptions.defaultMaximumSeconds
    @Option(help: "Offline: also draw the render (waveform, spectrogram, face lanes, chords) to this .png or .svg file.")
    var plot: String?

    @Flag(name: .customLong("midi"), help: "Live: also play what Hecate sounds as MIDI on Prospero:midi_out (chord tones and bass as notes with pressure, sculpting as CCs: docs/hecate-midi.md). --midi-out PORT turns it on and connects PORT; offline, --midi-out FILE.mid writes the render's MIDI.")
    var midi = false

    @Option(name: .customLong("midi-channel"), help: "MIDI channel 1…16 of Hecate's MIDI out (default 1).")
    var midiChannel = 1

    @Option(help: "Benchmark: render this many seconds with every tone, the bass and all effects sounding; print the speed.")
    var bench: Double?

    @OptionGroup(title: "Live input") var network: LiveInputArguments
    @OptionGroup(title: "Live input") var timing: InputDelayArguments

    @OptionGroup var live: LiveSessionArguments

    @OptionGroup(title: "Settings") var settingsFile: SettingsArguments
    @OptionGroup(title: "MIDI learn") var learning: LearnArguments

    func validate() throws {
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown format '\(format)' (pcm16, pcm24, float32)") }
        if output != nil && input == nil { throw ValidationError("-o needs --input RECORDING (live play goes to JACK)") }
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds") }
        if plot != nil && input == nil { throw ValidationError("--plot needs --input RECORDING") }
        _ = try learning.paths(instrument: "hecate")
        if !learning.controls.isEmpty && (input != nil || bench != nil) {
            throw ValidationError("--learn listens on JACK midi_in: it is for live play (without --input or --bench)")
        }
        try AudioPicture.validate(plot: plot)
        guard (1...16).contains(midiChannel) else { throw ValidationError("--midi-channel must be 1…16, got \(midiChannel)") }
        if midi && (input != nil || bench != nil) {
            throw ValidationError("--midi plays live on JACK midi_out; offline, write the render's MIDI with --midi-out FILE.mid")
        }
        if input != nil && live.midiOut.count > 1 {
            throw ValidationError("with --input, give one --midi-out FILE.mid for the render's MIDI")
        }
    }

    /// Live: whether Hecate plays MIDI on `midi_out` (asked for, or a port to receive it was named).
    var sendsMIDI: Bool { midi || !live.midiOut.isEmpty }

    func run() throws {
        let (saved, _) = settingsFile.load()
        let mapped = try learning.mappings()
        let isLive = input == nil && bench == nil
        var detected: OutputRouteDetection?
        if isLive && (sound.route ?? (saved.hecateRouteIsAutomatic ? "auto" : "")) == "auto" {
            // Where JACK (or PipeWire's JACK) plays: a Bluetooth sink gets play-along's −14 dBFS ceiling.
            detected = try? JACKOutputRoute.detect(serverName: live.server)
            StandardOutput.line("hecate: output route: " + (detected?.summary ?? "JACK did not report the output device: wired"))
        }
        let setup = try sound.resolve(base: saved.hecate, routeIsAutomatic: saved.hecateRouteIsAutomatic, detected: detected)
        var next = saved
        next.hecate = setup.settings
        next.hecateRouteIsAutomatic = setup.routeIsAutomatic
        if let bench {
            guard bench.isFinite, bench > 0 else { throw ValidationError("--bench must be a positive number of seconds") }
            HecateCommand.benchmark(seconds: bench, setup: setup, sampleRate: Double(sampleRate))
        } else if let input {
            let recording = try HecateCommand.loadRecording(input)
            let path = output ?? "out/hecate-\(setup.pack.id).wav"
            // Rendered once, in the output format, streamed to the file.
            let options = HecateRecordingRender.options(
                sampleRate: Double(sampleRate), format: WAVSampleFormat(rawValue: format)!, maximumSeconds: maxDuration)
            let sink = try FileWAVSink(path: path)
            let summary: HecateRecordingRender.Summary
            let midiFile = live.midiOut.first
            var midiEvents: [EngineMIDIOutbox.Event] = []
            do {
                summary = try HecateRecordingRender.render(
                    recording, engine: DroneSynthEngine(preset: setup.pack.preset, key: setup.key),
                    initial: setup.initialCommands + (midiFile == nil ? [] : [.midiOut(channel: midiChannel)]),
                    chords: setup.chords, options: options, to: sink,
                    midi: midiFile == nil ? nil : { midiEvents.append($0) }).summary
                try sink.close()
            } catch {
                sink.discard()
                let hint = error is OfflineRenderError ? "; raise it with --max-duration SECONDS" : ""
                throw ValidationError("recording '\(input)': \(error)\(hint)")
            }
            print("wrote \(path): \(summary), pack \(setup.pack.name), \(recording.frames.count) face frames")
            if let midiFile {
                let bytes = try HecateRecordingRender.midiFile(midiEvents, sampleRate: Double(sampleRate)).encoded()
                do { try Data(bytes).write(to: URL(fileURLWithPath: midiFile)) } catch {
                    throw ValidationError("cannot write '\(midiFile)': \(error.localizedDescription)")
                }
                let notes = midiEvents.filter { $0.message.status & 0xF0 == 0x90 }.count
                let controllers = midiEvents.filter { $0.message.status & 0xF0 == 0xB0 }.count
                print("wrote \(midiFile): \(notes) notes, \(controllers) controller changes, channel \(midiChannel)")
            }
            try HecateCommand.reportAndPlot(file: path, plot: plot, title: "HECATE \(setup.pack.name.uppercased())",
                                            recording: recording, setup: setup, starts: [0], ends: [summary.duration])
            next.midi = MIDIControlLearn(bindings: saved.midi + mapped).bindings
            try settingsFile.saveIfAsked(next)
        } else {
            let (bindings, moved) = try runLive(setup, bindings: saved.midi + mapped)
            next.midi = bindings
            next.hecate = moved
            try settingsFile.saveIfAsked(next)
        }
    }

    // MARK: Offline

    static func loadRecording(_ path: String) throws -> Recording { try RecordingFile.load(path) }

    /// Renders `recording` with `setup` (float32 in memory, for the demo's concatenation); left and right.
    static func render(_ recording: Recording, setup: HecateSetup, sampleRate: Double) throws -> (left: [Float], right: [Float]) {
        let rendered = try HecateRecordingRender.render(
            recording, engine: DroneSynthEngine(preset: setup.pack.preset, key: setup.key), initial: setup.initialCommands,
            chords: setup.chords, options: HecateRecordingRender.options(sampleRate: sampleRate, format: .float32),
            to: WAVMemorySink())
        var collector = SampleCollector()
        collector.take(rendered.sink.bytes, channels: 2)
        return (collector.left, collector.right)
    }

    /// Reads back the float32 WAV the renderer produced (keeps one code path for the samples).
    struct SampleCollector {
        var left: [Float] = []
        var right: [Float] = []
        mutating func take(_ bytes: [UInt8], channels: Int) {
            guard let wav = try? WAVAudio(decoding: bytes) else { return }
            left = wav.channels[0]
            right = wav.channels.count > 1 ? wav.channels[1] : wav.channels[0]
        }
    }

    static func write(_ audio: (left: [Float], right: [Float]), to path: String, sampleRate: Int, format: WAVSampleFormat) throws {
        var encoder = WAVEncoder(sampleRate: sampleRate, channelCount: 2, format: format)
        encoder.append(left: audio.left, right: audio.right)
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(encoder.finish()).write(to: url)
    }

    static func summary(_ audio: (left: [Float], right: [Float]), sampleRate: Double) -> String {
        var peak: Float = 0
        var sum = 0.0
        for i in audio.left.indices {
            peak = max(peak, abs(audio.left[i]), abs(audio.right[i]))
            sum += Double(audio.left[i] * audio.left[i] + audio.right[i] * audio.right[i])
        }
        let rms = (sum / Double(max(1, 2 * audio.left.count))).squareRoot()
        return String(format: "%.2f s, peak %.1f dBFS, RMS %.1f dBFS", Double(audio.left.count) / sampleRate,
                      20 * log10(Double(max(peak, 1e-9))), 20 * log10(max(rms, 1e-9)))
    }

    /// Renders `seconds` of the engine with every tone, the bass, shimmer, tremolo and reverb on, in
    /// 256-frame blocks through `EngineHost`, and prints the speed as a multiple of real time.
    static func benchmark(seconds: Double, setup: HecateSetup, sampleRate: Double) {
        let block = 256
        let host = EngineHost(engine: DroneSynthEngine(preset: setup.pack.preset, key: setup.key),
                              spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: block, channelCount: 2))
        for c in setup.initialCommands { host.send(c) }
        host.send(.face(FaceAmounts(root: 1, third: 1, fifth: 1, seventh: 1, ninth: 1, octave: 1, bass: 1,
                                    cutoff: 0.6, resonance: 0.5, formantF1: 0.5, formantF2: 0.5, brightness: 1)))
        var left = [Float](repeating: 0, count: block), right = left
        let blocks = Int(seconds * sampleRate) / block
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    for _ in 0..<blocks { host.process(left: l, right: r) }
                }
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let audio = Double(blocks * block) / sampleRate
        print(String(format: "hecate engine, pack %@, every tone sounding: %.1f s of audio in %.3f s (best of 3): %.0f× real time, %.1f µs per 256-frame block (%.2f%% of its %.2f ms)",
                     setup.pack.name, audio, best, audio / best, best / Double(blocks) * 1e6,
                     best / audio * 100, Double(block) / sampleRate * 1000))
    }

    // MARK: Live

    /// Plays live; returns the MIDI bindings in effect at the end (the given ones and any learned) and
    /// the settings as the learned controllers left them.
    func runLive(_ setup: HecateSetup, bindings: [MIDIBinding<String>]) throws -> ([MIDIBinding<String>], HecateStudioSettings) {
        let learn = try learning.paths(instrument: "hecate")
        let stop = LiveCommand.begin(duration: live.duration)
        StandardOutput.line(HecateCommand.mappingGuide)
        // JACK renders the engine; MIDI clock on `midi_in` (a DAW, a drum machine) is the tempo the adapter follows.
        // The output limiter's delay as JACK prepared it: the live stage, 1 ms with true peak.
        // With MIDI out, the engine's outbox goes to `midi_out` at the frames where the voices change.
        let engine = DroneSynthEngine(preset: setup.pack.preset, key: setup.key)
        let handler = EngineProcessHandler(engine: engine, latency: { engine, _ in engine.latencySamples },
                                           midiOutbox: sendsMIDI ? engine.midiOutbox : nil)
        for c in setup.initialCommands { handler.host.send(c) }
        if sendsMIDI { handler.host.send(.midiOut(channel: midiChannel)) }
        // A face frame's commands are due its arrival frame + the input delay, at that sample.
        let inputClock = try timing.clock()
        let face = HecateLiveInstrument(host: handler.host, chords: setup.chords, clock: handler.clock,
                                        frameClock: inputClock, announce: { StandardOutput.line($0) })
        // Learned controllers move the same settings the studio's sliders move (on the host's thread).
        let controls = HecateControlState(setup.settings)
        let instrument = LiveLearning(
            base: face, bindings: bindings, learning: learn, drain: { handler.controlChanges.drain($0) },
            apply: { path, value in for c in controls.settings.move(path, to: value, pack: setup.pack) { handler.host.send(c) } },
            announce: { StandardOutput.line($0) })
        // Work from the JACK session's thread (a new output route) reaches the engine through the host's thread.
        let mailbox = LiveInstrumentMailbox(base: instrument)
        let options = try network.hostOptions()
        let host = LiveHost(source: network.source(), instrument: mailbox, stop: stop, options: options, sink: try network.sink())
        do { try host.start() } catch {
            throw ValidationError("cannot listen on udp \(network.host):\(network.port): \(error)")
        }
        StandardOutput.line("hecate: face input on udp \(host.source.localAddress), accepting \(options.allow)\(network.outputsBanner); "
            + "pack \(setup.pack.name), key \(setup.key), limiter \(Int(setup.settings.limiterCeiling)) dBFS"
            + (bindings.isEmpty ? "" : ", \(bindings.count) MIDI controller binding(s)")
            + (sendsMIDI ? ", MIDI out on \(live.clientName):midi_out channel \(midiChannel)" : "") + "; Ctrl-C to stop")
        let meter = LiveMeterLine(tap: handler.meterTap, sampleRate: { handler.host.spec.sampleRate })
        let input = LiveCommand.HostThread(host) { status in
            if let line = status.instrumentLine { StandardOutput.line(line + "  " + meter.line() + "  " + status.countersLine) }
        }
        defer {
            StandardOutput.line(LiveCommand.summary(stop.reason, input.waitUntilFinished()?.success)
                + ", late commands \(handler.host.lateCommandCount)"
                // How much of the input delay the frames had to spare at worst (negative: the latest was that late).
                + (handler.host.smallestTimingMargin.map { " (smallest input margin \($0) frames)" } ?? "")
                + (sendsMIDI ? ", MIDI sent \(engine.midiOutbox.postedCount), dropped \(engine.midiOutbox.droppedCount + handler.refusedMIDIOutCount)" : ""))
        }
        // The face's fade-out is queued before JACK's final period.
        try live.run(handler: handler, stop: stop, inputClock: inputClock, beforeFinalPeriod: { input.waitUntilFinished() },
                     onGraphChange: setup.routeIsAutomatic ? HecateCommand.followRoute(setup.settings, server: live.server, into: mailbox, host: handler.host) : nil)
        return (instrument.bindings, controls.settings)
    }

    /// With `--route auto`: after each change of JACK's graph, where the outputs now play (a Bluetooth sink
    /// connected or disconnected); a new route sets the limiter's ceiling, sent from the live host's thread.
    static func followRoute(_ settings: HecateStudioSettings, server: String?, into mailbox: LiveInstrumentMailbox,
                            host: EngineHost<DroneSynthEngine>) -> @Sendable ([String]) -> Void {
        let playAlong = settings.playAlong
        return OutputRouteFollower(initial: OutputRouteDetection(route: settings.route, evidence: nil), serverName: server) { detected in
            let ceiling = detected.route.limiterCeiling(playAlong: playAlong)
            StandardOutput.line("hecate: output route now: \(detected.summary); limiter \(Int(ceiling)) dBFS")
            mailbox.post { host.send(.output(playAlong: playAlong, route: detected.route)) }
        }.graphChanged
    }

    /// The live settings a learned controller moves (one thread: the live host's).
    final class HecateControlState: @unchecked Sendable {
        var settings: HecateStudioSettings
        init(_ settings: HecateStudioSettings) { self.settings = settings }
    }

    static let mappingGuide = """
        HECATE: your face plays chords.
        Voicing                                   Sculpting
          at rest            root drone             head turn (yaw, 0–0.25 from centre)  filter cutoff
          open mouth (1st ½) add the 5th            nod (pitch, 0–0.20 from centre)      formant F2 (vowel shape)
          mouth wide (2nd ½) bass note              tilt (roll, 0–0.12 from centre)      filter resonance
          raise eyebrows     add the 3rd            smile                                brightness (octave shimmer)
          puff cheeks        add the 7th            jaw open                             formant F1 (vowel openness)
          purse lips         add the 7th + 9th      smile                                formant F2
        Face lost: fades out in 100 ms; back: fades in over 450 ms.
        """
}

/// The sound settings shared by `prospero hecate` and `prospero demo`. Every option is optional:
/// one not given takes its value from the settings the command starts from (the settings file's
/// Hecate section for `prospero hecate`, the defaults for the demo).
struct HecateSoundOptions: ParsableArguments {
    @Option(help: "Key: C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B (default C).")
    var key: String?

    @Option(help: "Chord (I, ii, iii, IV, V, vi, vii°) or a sequence with start times in seconds: I@0,IV@8,V@16 (default I).")
    var chord: String?

    @Option(help: "Sound pack: cathedral (default), coven, a user pack id (a *.json in $XDG_CONFIG_HOME/prospero/packs), or a pack JSON file.")
    var pack: String?

    @Option(help: "Tempo in BPM (20…300, default 90) for the arpeggiator and tremolo.")
    var bpm: Double?

    @Flag(inversion: .prefixedNo, help: "Arpeggiate the active chord tones (8 steps).")
    var arp: Bool?

    @Option(help: "Arpeggiator step: 1/4, 1/8 (default), 1/16, 1/8T, 1/8. …")
    var arpDivision: String?

    @Option(help: "Tremolo shape: off (default), sine, triangle, square, saw.")
    var tremolo: String?

    @Option(help: "Tremolo period as a note division at the BPM (default 1/8).")
    var tremoloDivision: String?

    @Option(help: "Tremolo depth 0…1 (default 0.5).")
    var tremoloDepth: Double?

    @Option(help: "Reverb wet mix 0…1 (default: the pack's).")
    var reverbMix: Double?

    @Flag(inversion: .prefixedNo, help: "Play along with other audio: limiter at −10 dBFS (−14 over Bluetooth) instead of −6.")
    var playAlong: Bool?

    @Option(help: "Output route for play-along's ceiling: auto (default: a Bluetooth sink reported by JACK/PipeWire gets −14 dBFS), wired, speaker, bluetooth.")
    var route: String?

    /// The settings these options give over `base`; `detected` is what JACK reported (used for `auto`).
    func resolve(base: HecateStudioSettings = HecateStudioSettings(), routeIsAutomatic: Bool = true,
                 detected: OutputRouteDetection? = nil) throws -> HecateSetup {
        var s = base
        let pack: SoundPack
        if let name = self.pack {
            pack = try Self.loadPack(name)
            // Another pack brings its own levels (as in the studio); the same pack keeps the saved ones.
            if pack.id != base.packID {
                s.bassLevel = pack.preset.bassLevel
                s.droneLevel = pack.preset.droneLevel
                s.reverb = pack.preset.reverbMix
            }
        } else {
            // The saved pack: a built-in id or a pack file; one that is gone falls back to cathedral.
            pack = (try? Self.loadPack(base.packID)) ?? .cathedral
        }
        s.packID = pack.id
        let keyName = key ?? s.keyName
        guard let key = MusicalKey(keyName) else { throw ValidationError("unknown key '\(keyName)' (C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B)") }
        s.key = key
        let chords = try Self.parseChords(chord ?? s.chord.romanNumeral)
        s.chord = chords[0].1
        s.bpm = bpm ?? s.bpm
        guard s.bpm.isFinite, (20...300).contains(s.bpm) else { throw ValidationError("--bpm must be 20…300, got \(s.bpm)") }
        s.arpeggiator = arp ?? s.arpeggiator
        let arpText = arpDivision ?? s.arpDivision
        guard let arpDivision = Self.parseDivision(arpText) else { throw ValidationError("--arp-division '\(arpText)' is not a note division (1/4, 1/8, 1/16, 1/8T, 1/8.)") }
        if HecateStudioSettings.divisions.contains(arpText) { s.arpDivision = arpText }
        let tremoloText = tremoloDivision ?? s.tremoloDivision
        guard let tremoloDivision = Self.parseDivision(tremoloText) else { throw ValidationError("--tremolo-division '\(tremoloText)' is not a note division") }
        if HecateStudioSettings.divisions.contains(tremoloText) { s.tremoloDivision = tremoloText }
        var shape: TremoloShape?
        let shapeText = tremolo ?? s.tremolo
        if shapeText != "off" {
            guard let t = TremoloShape(rawValue: shapeText) else { throw ValidationError("--tremolo must be off, sine, triangle, square or saw, not '\(shapeText)'") }
            shape = t
        }
        s.tremolo = shapeText
        s.tremoloDepth = tremoloDepth ?? s.tremoloDepth
        guard s.tremoloDepth.isFinite, (0...1).contains(s.tremoloDepth) else { throw ValidationError("--tremolo-depth must be 0…1") }
        if let reverbMix {
            guard reverbMix.isFinite && (0...1).contains(reverbMix) else { throw ValidationError("--reverb-mix must be 0…1") }
            s.reverb = reverbMix
        }
        s.playAlong = playAlong ?? s.playAlong
        let routeText = route ?? (routeIsAutomatic ? "auto" : s.route.rawValue)
        var automatic = false
        if routeText == "auto" {
            automatic = true
            s.route = detected?.route ?? .wired
        } else {
            guard let r = OutputRoute(rawValue: routeText) else { throw ValidationError("--route must be auto, wired, speaker or bluetooth") }
            s.route = r
        }

        var commands: [DroneSynthEngine.Command] = [
            .preset(s.preset(of: pack)), .key(key), .chord(chords[0].1), .bpm(s.bpm), .arpeggiatorDivision(arpDivision),
            .tremolo(shape: shape ?? .sine, division: tremoloDivision, depth: shape == nil ? 0 : Float(s.tremoloDepth)),
            .output(playAlong: s.playAlong, route: s.route),
        ]
        if s.arpeggiator { commands.append(.arpeggiator(true)) }
        return HecateSetup(key: key, pack: pack, chords: chords, initialCommands: commands, settings: s, routeIsAutomatic: automatic)
    }

    static func parseChords(_ text: String) throws -> [(Double, NashvilleDegree)] {
        var result: [(Double, NashvilleDegree)] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "@", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let degree = NashvilleDegree(parts[0]) else {
                throw ValidationError("'\(parts[0])' is not a Nashville chord (I, ii, iii, IV, V, vi, vii°)")
            }
            var time = 0.0
            if parts.count == 2 {
                guard let t = Double(parts[1]), t.isFinite, t >= 0 else { throw ValidationError("chord time '\(parts[1])' must be seconds ≥ 0") }
                time = t
            }
            result.append((time, degree))
        }
        guard !result.isEmpty else { throw ValidationError("--chord needs at least one chord") }
        return result.sorted { $0.0 < $1.0 }
    }

    static func parseDivision(_ text: String) -> NoteDivision? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var modifier = NoteDivision.Modifier.straight
        if body.hasSuffix("T") || body.hasSuffix("t") { modifier = .triplet; body = body.dropLast() }
        else if body.hasSuffix(".") { modifier = .dotted; body = body.dropLast() }
        guard body.hasPrefix("1/"), let d = Int(body.dropFirst(2)) else { return nil }
        return NoteDivision(denominator: d, modifier: modifier)
    }

    static func loadPack(_ name: String) throws -> SoundPack {
        if let builtIn = SoundPack.builtIn.first(where: { $0.id == name.lowercased() }) { return builtIn }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: name)) } catch {
            // A user pack by id, from the directory `prospero studio` lists too.
            let user = HecateUserPackFiles.library()
            if let pack = user.library.pack(id: name) { return pack }
            throw ValidationError("--pack '\(name)' is neither cathedral, coven, a pack id in \(user.directory ?? "~/.config/prospero/packs") nor a readable pack file")
        }
        do { return try SoundPack(json: data) } catch { throw ValidationError("pack '\(name)': \(error)") }
    }
}

/// Resolved sound settings: the engine commands that set them up, and the chord sequence.
struct HecateSetup {
    var key: MusicalKey
    var pack: SoundPack
    /// (seconds from the start, chord), sorted.
    var chords: [(Double, NashvilleDegree)]
    var initialCommands: [DroneSynthEngine.Command]
    /// The same as the settings the studio shows and the settings file keeps.
    var settings = HecateStudioSettings()
    /// The route was detected (`auto`) rather than chosen.
    var routeIsAutomatic = true
}
