import ArgumentParser
import ProsperoCommandLine
import StudioApp

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero studio`: the local web app. Serves Home and every instrument's page, runs the active
/// instrument's engine once in this process (through JACK, streamed to the pages with `--audio browser`,
/// or nothing with `--audio none`), and feeds it the shared OSC inputs.
///
/// Its own executable, `prospero-studio`, which `prospero studio` replaces itself with: the web stack
/// (SwiftNIO and Hummingbird) is most of the package's build, and a person who renders
/// a demo or plays `prospero hecate` never waits for it.
///
/// This type only parses and checks the options and maps them to a ``StudioConfiguration``; ``StudioApp`` builds
/// the studio from it and runs it.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prospero studio",
        abstract: "The studio: play and see every instrument in a browser (a phone on the LAN becomes a touch surface).",
        discussion: """
            Open the printed URL. Loopback (127.0.0.1) needs no token; any other --host needs one: a random one printed
            in the URL (http://HOST:PORT/?token=…), exchanged for a cookie on first visit, or your own from
            --token-file FILE (its first line) or the environment variable PROSPERO_STUDIO_TOKEN, never from the command
            line, where every user of the machine can read it. Face and hand senders send OSC to --osc-host:--osc-port
            as for `prospero hecate`/`hands`.
            """
    )

    @Option(help: "HTTP port (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "Address to serve on: 127.0.0.1 (default) for this machine only; a LAN address or 0.0.0.0 for phones (needs a token).")
    var host: String = "127.0.0.1"

    @Option(help: "Where the sound plays: auto (JACK when a server runs, else browser), jack, browser (streamed to the pages that tap Listen), none.")
    var audio: String = "auto"

    @Option(name: .customLong("browser-group"), help: ArgumentHelp(
        "Browser audio: blocks (5.3 ms each) rendered and sent together, 1…16. Fewer: an input's sound lands more evenly (6: within ±16 ms); more: less CPU per listening page.",
        valueName: "BLOCKS"))
    var browserGroup: Int = StudioConfiguration().browserGroup

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "Read the access token from FILE's first line (8…128 letters, digits, - _ .); without it: $PROSPERO_STUDIO_TOKEN, else a random one beyond loopback and none on it. A chosen token is needed on loopback too.",
        valueName: "FILE"))
    var tokenFile: String?

    @Option(name: .customLong("tls"), parsing: .upToNextOption, help: "Serve HTTPS: --tls CERT.pem KEY.pem (e.g. made with mkcert).")
    var tls: [String] = []

    @Option(name: .customLong("osc-port"), help: "UDP port for OSC input (face, hands).")
    var oscPort: Int = 9000

    @Option(name: .customLong("osc-host"), help: "Interface for OSC input: 127.0.0.1 (default) or a LAN address / 0.0.0.0 with --allow.")
    var oscHost: String = "127.0.0.1"

    @Option(help: "Accept OSC senders from this network when --osc-host is beyond loopback (repeatable): 192.168.1.0/24, 10.0.0.7, any.")
    var allow: [String] = []

    @Option(name: .customLong("camera"), help: ArgumentHelp("Track this machine's camera too (DEVICE: /dev/videoN, an index, or a video file; `--camera` alone: the first camera); its faces or hands play the active instrument and the pages show its preview.", valueName: "DEVICE"))
    var camera: String?

    @Flag(name: .customLong("no-qr"), help: "Do not print the QR code of the LAN URL.")
    var noQR = false

    @OptionGroup(title: "JACK") var live: LiveSessionArguments

    @OptionGroup(title: "Live input") var timing: InputDelayArguments

    @OptionGroup(title: "Connections") var connections: StudioConnectionArguments
    // Settings (settings-learn): read at start, saved a second after a change.
    @Option(name: .customLong("settings"), help: "Settings file, read at start and saved when a setting changes (default: $XDG_CONFIG_HOME/prospero/settings.json, else ~/.config/prospero/settings.json).")
    var settingsPath: String?
    @Flag(name: .customLong("no-settings"), help: "Neither read nor save the settings file.")
    var noSettings = false

    @Flag(name: .customLong("hecate-midi"), help: "Hecate also plays what it sounds as MIDI on JACK midi_out (as prospero hecate --midi; needs --audio jack).")
    var hecateMIDI = false

    @Option(name: .customLong("hecate-midi-channel"), help: "MIDI channel 1…16 of --hecate-midi (default 1).")
    var hecateMIDIChannel = 1

    func validate() throws {
        guard StudioConfiguration.AudioMode(rawValue: audio) != nil else {
            throw ValidationError("--audio must be auto, jack, browser or none, not '\(audio)'")
        }
        guard tls.isEmpty || tls.count == 2 else { throw ValidationError("--tls takes two files: CERT.pem KEY.pem") }
        guard (1...16).contains(hecateMIDIChannel) else { throw ValidationError("--hecate-midi-channel must be 1…16") }
        let c = try configuration()
        do { try c.validate() } catch { throw ValidationError(error.message) }
    }

    /// The options as the studio's configuration (the token and Hecate's user packs are read by ``run()``: a token
    /// file is read once, so that a pipe, `--token-file <(…)`, works).
    func configuration() throws -> StudioConfiguration {
        var c = StudioConfiguration()
        c.host = host
        c.port = port
        if tls.count == 2 { c.tls = (tls[0], tls[1]) }
        c.audio = StudioConfiguration.AudioMode(rawValue: audio) ?? .auto
        c.browserGroup = browserGroup
        c.oscHost = oscHost
        c.oscPort = oscPort
        c.allow = allow
        c.inputDelay = try timing.delay()
        c.settingsPath = settingsPath
        c.noSettings = noSettings
        c.hecateMIDIChannel = hecateMIDI ? hecateMIDIChannel : nil
        c.camera = camera
        c.noQR = noQR
        c.jack = live.options
        c.duration = live.duration
        c.limits = connections.limits
        return c
    }

    func run() throws {
        var c = try configuration()
        do { c.token = try StudioConfiguration.chosenToken(file: tokenFile, environment: c.environment) } catch {
            throw ValidationError(error.message)
        }
        // The studio's children (the camera bridge) have no use for the token: it leaves the environment they inherit.
        c.environment[StudioConfiguration.tokenEnvironmentVariable] = nil
        unsetenv(StudioConfiguration.tokenEnvironmentVariable)
        // Hecate's user packs: the same directory and validation as `prospero hecate --pack ID`.
        let packs = HecateUserPackFiles.library(environment: c.environment)
        c.hecatePacks = packs.library
        c.hecatePackProblems = packs.problems
        do { try StudioApp.run(c) } catch {
            switch error.kind {
            case .invalid: throw ValidationError(error.message)
            case .failed: throw ExitCode.failure
            }
        }
    }
}
