import ArgumentParser
import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import Synchronization
import Touchstone

/// `prospero hecate`: the face-controlled chord synthesizer.
///
/// Live: face frames over OSC (any sender Enobarbus understands) → `HecatePerformance` → commands
/// through `EngineHost` → JACK. Offline: `--input RECORDING -o OUT.wav` renders a recorded face
/// performance through the same engine and commands.
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

    @Option(help: "Benchmark: render this many seconds with every tone, the bass and all effects sounding; print the speed.")
    var bench: Double?

    @OptionGroup(title: "Live input") var network: LiveInputArguments
    @OptionGroup(title: "Live input") var timing: InputDelayArguments

    @OptionGroup var live: LiveSessionArguments

    func validate() throws {
        guard (8_000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown format '\(format)' (pcm16, pcm24, float32)") }
        if output != nil && input == nil { throw ValidationError("-o needs --input RECORDING (live play goes to JACK)") }
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds") }
        if plot != nil && input == nil { throw ValidationError("--plot needs --input RECORDING") }
        try AudioPicture.validate(plot: plot)
    }

    func run() throws {
        let setup = try sound.resolve()
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
            do {
                summary = try HecateRecordingRender.render(
                    recording, engine: DroneSynthEngine(preset: setup.pack.preset, key: setup.key),
                    initial: setup.initialCommands, chords: setup.chords, options: options, to: sink).summary
                try sink.close()
            } catch {
                sink.discard()
                let hint = error is OfflineRenderError ? "; raise it with --max-duration SECONDS" : ""
                throw ValidationError("recording '\(input)': \(error)\(hint)")
            }
            print("wrote \(path): \(summary), pack \(setup.pack.name), \(recording.frames.count) face frames")
            try HecateCommand.reportAndPlot(file: path, plot: plot, title: "HECATE \(setup.pack.name.uppercased())",
                                            recording: recording, setup: setup, starts: [0], ends: [summary.duration])
        } else {
            try runLive(setup)
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

    func runLive(_ setup: HecateSetup) throws {
        let stop = LiveCommand.begin(duration: live.duration)
        StandardOutput.line(HecateCommand.mappingGuide)
        let handler = HecateJACKHandler(setup: setup)
        // A face frame's commands are due its arrival frame + the input delay, at that sample.
        let inputClock = try timing.clock()
        let instrument = HecateLiveInstrument(host: handler.host, chords: setup.chords, clock: handler.audio,
                                              frameClock: inputClock, announce: { StandardOutput.line($0) })
        let options = try network.hostOptions()
        let host = LiveHost(source: network.source(), instrument: instrument, stop: stop, options: options, sink: try network.sink())
        do { try host.start() } catch {
            throw ValidationError("cannot listen on udp \(network.host):\(network.port): \(error)")
        }
        StandardOutput.line("hecate: face input on udp \(host.source.localAddress), accepting \(options.allow)\(network.outputsBanner); "
            + "pack \(setup.pack.name), key \(setup.key); Ctrl-C to stop")
        let audio = handler.audio
        let meter = LiveMeterLine(tap: audio.meterTap, sampleRate: { audio.host.spec.sampleRate })
        let input = LiveCommand.HostThread(host) { status in
            if let line = status.instrumentLine { StandardOutput.line(line + "  " + meter.line() + "  " + status.countersLine) }
        }
        defer {
            StandardOutput.line(LiveCommand.summary(stop.reason, input.waitUntilFinished()?.success)
                + ", late commands \(handler.host.lateCommandCount)")
        }
        // The face's fade-out is queued before JACK's final period.
        try live.run(handler: handler, stop: stop, inputClock: inputClock, beforeFinalPeriod: { input.waitUntilFinished() })
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

/// The sound settings shared by `prospero hecate` and `prospero demo`.
struct HecateSoundOptions: ParsableArguments {
    @Option(help: "Key: C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B.")
    var key: String = "C"

    @Option(help: "Chord (I, ii, iii, IV, V, vi, vii°) or a sequence with start times in seconds: I@0,IV@8,V@16.")
    var chord: String = "I"

    @Option(help: "Sound pack: cathedral, coven, a user pack id (a *.json in $XDG_CONFIG_HOME/prospero/packs), or a pack JSON file.")
    var pack: String = "cathedral"

    @Option(help: "Tempo in BPM (20…300) for the arpeggiator and tremolo.")
    var bpm: Double = 90

    @Flag(help: "Arpeggiate the active chord tones (8 steps).")
    var arp = false

    @Option(help: "Arpeggiator step: 1/4, 1/8, 1/16, 1/8T, 1/8. …")
    var arpDivision: String = "1/8"

    @Option(help: "Tremolo shape: sine, triangle, square, saw (default: off).")
    var tremolo: String?

    @Option(help: "Tremolo period as a note division at the BPM.")
    var tremoloDivision: String = "1/8"

    @Option(help: "Tremolo depth 0…1 (default 0.5 when --tremolo is given).")
    var tremoloDepth: Double?

    @Option(help: "Reverb wet mix 0…1 (default: the pack's).")
    var reverbMix: Double?

    @Flag(help: "Play along with other audio: limiter at −10 dBFS (−14 over Bluetooth) instead of −6.")
    var playAlong = false

    @Option(help: "Output route in play-along mode: wired, speaker, bluetooth.")
    var route: String = OutputRoute.wired.rawValue

    func resolve() throws -> HecateSetup {
        guard let key = MusicalKey(key) else { throw ValidationError("unknown key '\(key)' (C, Db, D, Eb, E, F, F#, G, Ab, A, Bb, B)") }
        let chords = try Self.parseChords(chord)
        let pack = try Self.loadPack(pack)
        guard bpm.isFinite, (20...300).contains(bpm) else { throw ValidationError("--bpm must be 20…300, got \(bpm)") }
        guard let arpDivision = Self.parseDivision(arpDivision) else { throw ValidationError("--arp-division '\(arpDivision)' is not a note division (1/4, 1/8, 1/16, 1/8T, 1/8.)") }
        guard let tremoloDivision = Self.parseDivision(tremoloDivision) else { throw ValidationError("--tremolo-division '\(tremoloDivision)' is not a note division") }
        var shape: TremoloShape?
        if let tremolo {
            guard let s = TremoloShape(rawValue: tremolo) else { throw ValidationError("--tremolo must be sine, triangle, square or saw, not '\(tremolo)'") }
            shape = s
        }
        let depth = tremoloDepth ?? (shape == nil ? 0 : 0.5)
        guard depth.isFinite, (0...1).contains(depth) else { throw ValidationError("--tremolo-depth must be 0…1") }
        if let reverbMix, !(reverbMix.isFinite && (0...1).contains(reverbMix)) { throw ValidationError("--reverb-mix must be 0…1") }
        guard let route = OutputRoute(rawValue: route) else { throw ValidationError("--route must be wired, speaker or bluetooth") }

        var commands: [DroneSynthEngine.Command] = [
            .preset(pack.preset), .key(key), .chord(chords[0].1), .bpm(bpm), .arpeggiatorDivision(arpDivision),
            .tremolo(shape: shape ?? .sine, division: tremoloDivision, depth: Float(depth)),
            .output(playAlong: playAlong, route: route),
        ]
        if let reverbMix { commands.append(.reverbMix(Float(reverbMix))) }
        if arp { commands.append(.arpeggiator(true)) }
        return HecateSetup(key: key, pack: pack, chords: chords, initialCommands: commands)
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
}

/// Live: JACK renders the engine; the live host turns OSC into face commands. MIDI clock on
/// `midi_in` (from a DAW or a drum machine) sets the tempo of the arpeggiator and tremolo.
final class HecateJACKHandler: JACKProcessHandler, @unchecked Sendable {
    let audio: EngineProcessHandler<DroneSynthEngine>
    var host: EngineHost<DroneSynthEngine> { audio.host }

    init(setup: HecateSetup) {
        // DroneSynthEngine's output limiter uses BrickwallLimiter's default 5 ms look-ahead.
        audio = EngineProcessHandler(engine: DroneSynthEngine(preset: setup.pack.preset, key: setup.key),
                                     latency: { _, rate in max(1, Int((0.005 * rate).rounded())) })
        for c in setup.initialCommands { audio.host.send(c) }
    }

    func prepare(sampleRate: Double, maximumFrames: Int) {
        audio.prepare(sampleRate: sampleRate, maximumFrames: maximumFrames)
    }

    var processingLatency: Int { audio.processingLatency }

    func process(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                 midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput) {
        audio.process(frameCount: frameCount, left: left, right: right, midiIn: midiIn, midiOut: &midiOut)
    }
}
