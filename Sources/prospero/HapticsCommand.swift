import ArgumentParser
import Ariel
import Foundation
import Haptics
import HapticsEvdev

/// `prospero haptics …`: haptic patterns for iPhone (AHAP), Android, the web and game controllers.
struct HapticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haptics",
        abstract: "Make, convert and play haptic patterns (AHAP, Android, web, controller rumble).",
        subcommands: [HapticsPatternCommand.self, HapticsConvertCommand.self, HapticsFromAudioCommand.self, HapticsPlayCommand.self]
    )
}

/// The targets a pattern renders to.
enum HapticFormat: String, ExpressibleByArgument, CaseIterable {
    case ahap, android, androidPrimitives = "android-primitives", web, rumble

    /// The pattern as this format's JSON text, with what the target could not play.
    func render(_ pattern: HapticPattern) -> (text: String, warnings: [HapticRenderWarning]) {
        switch self {
        case .ahap: return (pattern.ahapJSON(), [])
        case .android: let w = AndroidWaveform(pattern); return (w.json(), w.warnings)
        case .androidPrimitives:
            // Primitives fit patterns of taps only; anything longer falls back to the waveform.
            guard let c = AndroidComposition(pattern) else {
                let w = AndroidWaveform(pattern)
                return (w.json(), [.waveformInsteadOfPrimitives] + w.warnings)
            }
            return (c.json(), c.warnings)
        case .web: let w = WebVibrationPattern(pattern); return (w.json(), w.warnings)
        case .rumble: let r = RumbleTrack(pattern); return (r.json(), r.warnings)
        }
    }
}

enum HapticsIO {
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return ExitCode.failure
    }

    static func warn(_ warnings: [HapticRenderWarning], _ what: String) {
        for w in warnings { FileHandle.standardError.write(Data("warning: \(what): \(w)\n".utf8)) }
    }

    static func read(_ path: String, _ what: String) throws -> [UInt8] {
        do { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw fail("cannot read \(what) \(path): \(error.localizedDescription)")
        }
    }

    /// Writes text to `path`, or to stdout when `path` is nil or "-".
    static func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else { FileHandle.standardOutput.write(Data(text.utf8)); return }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } catch {
            throw fail("cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func readPattern(_ path: String) throws -> HapticPattern {
        let bytes = try read(path, "AHAP file")
        do { return try HapticPattern(ahap: bytes) } catch { throw fail("\(path): \(error)") }
    }
}

/// `prospero haptics pattern NAME --format F [-o FILE]`.
struct HapticsPatternCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pattern",
        abstract: "Write one of HapticManager's patterns (tap, adaptive, gradual, heavy) for a device.",
        discussion: """
            tap: one transient (intensity 0.4, sharpness 0.2). adaptive: an event at every 1/rate s for \
            --duration s, continuous 0.2 s at intensity 0.7·amplitude up to 2 Hz, transients at 0.6·amplitude \
            above. gradual: 20 events of 0.1 s in a bell over 2 s peaking at --intensity. heavy: five 0.2 s \
            events falling from full intensity. What a format cannot play is listed on stderr.
            """
    )

    enum Name: String, ExpressibleByArgument, CaseIterable { case tap, adaptive, gradual, heavy }

    @Argument(help: "tap, adaptive, gradual or heavy.")
    var name: Name

    @Option(help: "adaptive: LFO rate in Hz (0.1…10).")
    var rate: Double = 1

    @Option(help: "adaptive: amplitude 0…1.")
    var amplitude: Double = 1

    @Option(help: "gradual: peak intensity 0…1.")
    var intensity: Double = HapticManager.gradualDefaultIntensity

    @Option(help: "adaptive: seconds of pattern (0…30).")
    var duration: Double = 2

    @Option(help: "ahap, android, android-primitives, web or rumble.")
    var format: HapticFormat = .ahap

    @Option(name: .shortAndLong, help: "Output file (default: stdout).")
    var output: String?

    func validate() throws {
        guard rate.isFinite, HapticManager.rateRange.contains(rate) else { throw ValidationError("--rate must be 0.1…10 Hz, got \(rate)") }
        guard amplitude.isFinite, (0...1).contains(amplitude) else { throw ValidationError("--amplitude must be 0…1, got \(amplitude)") }
        guard intensity.isFinite, (0...1).contains(intensity) else { throw ValidationError("--intensity must be 0…1, got \(intensity)") }
        guard duration.isFinite, duration > 0, duration <= 30 else { throw ValidationError("--duration must be more than 0 and at most 30 s, got \(duration)") }
    }

    func run() throws {
        let pattern: HapticPattern
        switch name {
        case .tap: pattern = HapticManager.tap()
        case .adaptive: pattern = HapticManager.adaptive(rate: rate, amplitude: amplitude, duration: duration)
        case .gradual: pattern = HapticManager.gradual(intensity: intensity)
        case .heavy: pattern = HapticManager.heavy()
        }
        let (text, warnings) = format.render(pattern)
        HapticsIO.warn(warnings, format.rawValue)
        try HapticsIO.write(text, to: output)
    }
}

/// `prospero haptics convert IN.ahap --format F [-o FILE]`.
struct HapticsConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Render an AHAP file for Android, the web or controller rumble (or rewrite it as AHAP).")

    @Argument(help: "AHAP file.")
    var input: String

    @Option(help: "ahap, android, android-primitives, web or rumble.")
    var format: HapticFormat = .android

    @Option(name: .shortAndLong, help: "Output file (default: stdout).")
    var output: String?

    func run() throws {
        let pattern = try HapticsIO.readPattern(input)
        let (text, warnings) = format.render(pattern)
        HapticsIO.warn(warnings, format.rawValue)
        try HapticsIO.write(text, to: output)
    }
}

/// `prospero haptics from-audio IN.wav -o OUT.ahap [--android FILE] [--web FILE] [--rumble FILE]`.
struct HapticsFromAudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "from-audio",
        abstract: "Turn a WAV file into haptics: loudness as a continuous layer, onsets as taps.",
        discussion: """
            The AHAP file holds both layers; with --transients the taps go to their own file instead, so \
            the continuous layer's intensity curves do not scale them.
            """)

    @Argument(help: "WAV file (PCM 8/16/24/32-bit or float).")
    var input: String

    @Option(name: .shortAndLong, help: "Output AHAP file.")
    var output: String

    @Option(help: "Also write the transients alone as AHAP here (the main file then holds the continuous layer).")
    var transients: String?

    @Option(help: "Also write an Android waveform JSON.")
    var android: String?

    @Option(help: "Also write a Web Vibration pattern JSON.")
    var web: String?

    @Option(help: "Also write a controller rumble JSON.")
    var rumble: String?

    @Option(help: "Headroom in dB (0…12) under full intensity at the loudest moment.")
    var headroom: Double = 0

    @Option(name: .customLong("points-per-second"), help: "Curve breakpoints per second (1…100).")
    var pointsPerSecond: Double = 16

    func validate() throws {
        guard headroom.isFinite, (0...12).contains(headroom) else { throw ValidationError("--headroom must be 0…12 dB, got \(headroom)") }
        guard pointsPerSecond.isFinite, (1...100).contains(pointsPerSecond) else {
            throw ValidationError("--points-per-second must be 1…100, got \(pointsPerSecond)")
        }
    }

    func run() throws {
        let bytes = try HapticsIO.read(input, "WAV file")
        let wav: WAVAudio
        do { wav = try WAVAudio(decoding: bytes) } catch { throw HapticsIO.fail("\(input): \(error)") }
        guard let first = wav.channels.first, !first.isEmpty else { throw HapticsIO.fail("\(input): no audio frames") }
        let second = wav.channels.count > 1 ? wav.channels[1] : first
        let tracker = AudioHapticTracker(sampleRate: Double(wav.sampleRate))
        first.withUnsafeBufferPointer { l in second.withUnsafeBufferPointer { r in tracker.process(left: l, right: r, frame: 0) } }
        let result = AudioHaptics(tracker, headroom: headroom, pointsPerSecond: pointsPerSecond)
        let merged = result.merged
        if let transients {
            try HapticsIO.write(result.continuous.ahapJSON(), to: output)
            try HapticsIO.write(result.transients.ahapJSON(), to: transients)
        } else {
            try HapticsIO.write(merged.ahapJSON(), to: output)
        }
        for (format, path) in [(HapticFormat.android, android), (.web, web), (.rumble, rumble)] {
            guard let path else { continue }
            let (text, warnings) = format.render(merged)
            HapticsIO.warn(warnings, format.rawValue)
            try HapticsIO.write(text, to: path)
        }
        let seconds = Double(first.count) / Double(wav.sampleRate)
        print("wrote \(output): \(String(format: "%.2f", seconds)) s, \(result.transients.events.count) transients, "
              + "\(result.continuous.events.count) continuous events, \(result.continuous.curves.count) curves")
    }
}

/// `prospero haptics play FILE.ahap [--device /dev/input/eventN]`.
struct HapticsPlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Rumble an AHAP pattern on a game controller (Linux evdev force feedback).",
        discussion: "Without --device the first /dev/input/event* that can rumble is used; --list shows them.")

    @Argument(help: "AHAP file.")
    var input: String?

    @Option(help: "Event device, e.g. /dev/input/event5.")
    var device: String?

    @Flag(help: "List the controllers that can rumble and exit.")
    var list = false

    func validate() throws {
        if !list && input == nil { throw ValidationError("give an AHAP file to play (or --list)") }
    }

    func run() throws {
        if list {
            let found = EvdevRumblePlayer.controllers()
            if found.isEmpty { print(EvdevRumbleError(device: "", .noController)) }
            for c in found { print("\(c.path)\t\(c.name)") }
            return
        }
        let pattern = try HapticsIO.readPattern(input!)
        let path: String
        if let device {
            path = device
        } else {
            guard let first = EvdevRumblePlayer.controllers().first else {
                throw HapticsIO.fail("\(EvdevRumbleError(device: "", .noController))")
            }
            path = first.path
        }
        do {
            let player = try EvdevRumblePlayer(path: path)
            print("playing \(input!) (\(String(format: "%.2f", pattern.duration)) s) on \(player.name.isEmpty ? path : "\(player.name) (\(path))")")
            HapticsIO.warn(try player.play(pattern), "rumble")
        } catch {
            throw HapticsIO.fail("\(error)")
        }
    }
}
