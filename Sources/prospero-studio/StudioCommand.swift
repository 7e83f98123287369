import ArgumentParser
import CameraBridge
import CameraTools
import Enobarbus
import Foundation
import Hecate
import HiSynthLibrary
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import ProsperoCommandLine
import ProsperoJACK
import ProsperoSettingsFiles
import Studio
import StudioServer
import Synchronization

/// `prospero studio`: the local web app. Serves Home and every instrument's page, runs the active
/// instrument's engine once in this process (through JACK, streamed to the pages with `--audio browser`,
/// or nothing with `--audio none`), and feeds it the shared OSC inputs.
///
/// Its own executable, `prospero-studio`, which `prospero studio` replaces itself with: the web stack
/// (Hummingbird, swift-nio-ssl's BoringSSL) is most of the package's build, and a person who renders
/// a demo or plays `prospero hecate` never waits for it.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prospero studio",
        abstract: "The studio: play and see every instrument in a browser (a phone on the LAN becomes a touch surface).",
        discussion: """
            Open the printed URL. Loopback (127.0.0.1) needs no token; any other --host needs one: --token T or a random
            one printed in the URL (http://HOST:PORT/?token=…), exchanged for a cookie on first visit. Face and hand
            senders send OSC to --osc-host:--osc-port as for `prospero hecate`/`hands`.
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
    var browserGroup: Int = StudioBrowserDriver.defaultBlocksPerWake

    @Option(help: "Access token for --host beyond loopback (8…128 letters, digits, - _ .); default: a random one.")
    var token: String?

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
    // Settings (settings-learn): read at start, saved a second after a change.
    @Option(name: .customLong("settings"), help: "Settings file, read at start and saved when a setting changes (default: $XDG_CONFIG_HOME/prospero/settings.json, else ~/.config/prospero/settings.json).")
    var settingsPath: String?
    @Flag(name: .customLong("no-settings"), help: "Neither read nor save the settings file.")
    var noSettings = false

    @Flag(name: .customLong("hecate-midi"), help: "Hecate also plays what it sounds as MIDI on JACK midi_out (as prospero hecate --midi; needs --audio jack).")
    var hecateMIDI = false

    @Option(name: .customLong("hecate-midi-channel"), help: "MIDI channel 1…16 of --hecate-midi (default 1).")
    var hecateMIDIChannel = 1

    enum AudioMode: String { case auto, jack, browser, none }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (0...65535).contains(oscPort) else { throw ValidationError("--osc-port must be 0…65535") }
        guard (1...16).contains(browserGroup) else { throw ValidationError("--browser-group must be 1…16 blocks, not \(browserGroup)") }
        guard let mode = AudioMode(rawValue: audio) else { throw ValidationError("--audio must be auto, jack, browser or none, not '\(audio)'") }
        if let token, !StudioToken.isValid(token) { throw ValidationError("--token must be 8…128 letters, digits, '-', '_' or '.'") }
        guard tls.isEmpty || tls.count == 2 else { throw ValidationError("--tls takes two files: CERT.pem KEY.pem") }
        for file in tls where !FileManager.default.isReadableFile(atPath: file) { throw ValidationError("--tls: cannot read '\(file)'") }
        if !allow.isEmpty { _ = try oscAllowList() }
        guard (1...16).contains(hecateMIDIChannel) else { throw ValidationError("--hecate-midi-channel must be 1…16") }
        if hecateMIDI && (mode == .browser || mode == .none) {
            throw ValidationError("--hecate-midi sends on JACK midi_out: it needs --audio jack (or auto with a JACK server)")
        }
        if let camera {
            do throws(CameraBridgeUnavailable) {
                _ = try CameraBridgeLocator.locate()
                _ = try CameraDeviceProcess.resolve(camera)
            } catch { throw ValidationError(error.message) }
        }
    }

    func oscAllowList() throws -> SenderAllowList {
        guard !allow.isEmpty else { return .defaultFor(bindHost: oscHost) }
        do {
            var list = try SenderAllowList(parsing: allow)
            list.formUnion(.loopback)
            return list
        } catch { throw ValidationError("--allow: \(error)") }
    }

    func run() throws {
        let stop = LiveCommand.begin(duration: live.duration)
        // Hecate's user packs: the same directory and validation as `prospero hecate --pack ID`.
        let packs = HecateUserPackFiles.library()
        for problem in packs.problems { StandardOutput.line("studio: hecate pack \(problem)") }
        // Touches are due on JACK's clock at their arrival plus --input-delay, as the live commands' input.
        let inputClock = try timing.clock()
        // MIDI clock on JACK's midi_in: the tempo Hecate follows, as in `prospero hecate`.
        let midiClock = MIDIClockFollower()
        let instruments: [any StudioInstrument]
        do {
            // HiSynth's user presets: the files `prospero hisynth presets` lists, read and written here at the edge.
            instruments = try StudioInstrumentRegistry.standard(
                hecatePacks: packs.library, frameClock: inputClock, midiClock: midiClock, hisynthPresets: HiSynthPresetLibrary(),
                hecateMIDIChannel: hecateMIDI ? hecateMIDIChannel : nil
            ).entries.map { try $0.make() }
        } catch {
            throw ValidationError("an instrument could not start: \(error)")
        }
        let engines = instruments.map(\.audio)
        let first: Int? = instruments.isEmpty ? nil : 0

        var options = StudioServerOptions()
        options.host = host
        options.port = port
        options.token = token ?? (StudioSecurity.isLoopback(host) ? nil : StudioToken.random())
        if tls.count == 2 { options.tls = (tls[0], tls[1]) }
        if host == "0.0.0.0" || host == "::" { options.extraHosts = Set(StudioNetwork.localAddresses()) }

        // Audio: JACK when asked (or found, for auto), the browser when asked (or no JACK, for auto), else nothing renders.
        // The driver is made before the session and given to it.
        let mode = AudioMode(rawValue: audio)!
        var jack: JACKServerStatus?
        if mode == .jack || mode == .auto {
            jack = try? JACKServerStatus.query(serverName: live.server)
            if jack == nil && mode == .jack {
                throw ValidationError("--audio jack: no JACK server is running (start one, or use --audio none)")
            }
        }
        let tap = StudioMeterTap()
        let fanOut = StudioFanOut()
        let driver = jack.map { _ in StudioJACKDriver(engines: engines, active: first, tap: tap, clock: midiClock) }
        let browser = jack == nil && (mode == .browser || mode == .auto)
            ? StudioBrowserDriver(engines: engines, active: first, tap: tap, fanOut: fanOut, blocksPerWake: browserGroup) : nil
        // The pages' cameras: one camera bridge process for the studio, started on the first frame a page sends.
        let camera = StudioCameraDesk(bridge: CameraBridgeProcess(), log: { StandardOutput.line("studio: \($0)") })
        let session = StudioSession(instruments: instruments, active: first, audio: driver ?? browser, fanOut: fanOut, camera: camera)
        let startStatus = StudioAudioStatusMapping.status(
            jack: jack, clientName: live.clientName, note: jack == nil ? "--audio none: nothing renders" : nil)
        let jackSession = driver.map { LiveSession(handler: $0, options: live.options, stop: stop, log: { StandardOutput.line($0) }) }
        // The output route: detected at start and, with JACK, again whenever the connections change.
        let route = StudioRouteState()
        let settings = startSettings(session: session, jackRunning: jack != nil, route: route, stop: stop)
        // The shared OSC input's instrument; the route follower's work runs on its thread, as in `prospero hecate`.
        let liveInstrument = LiveInstrumentMailbox(base: StudioLiveInstrument(session: session))
        let follower = jackSession.map { _ in
            OutputRouteFollower(initial: route.detected, serverName: live.server) { detected in
                liveInstrument.post { StudioCommand.follow(detected, session: session, route: route) }
            }
        }
        let audioStatus: (@Sendable (Double) -> StudioAudioStatus)?
        if let browser {
            audioStatus = { browser.status(at: $0) }
        } else if let jackSession {
            audioStatus = { _ in
                var s = StudioAudioStatusMapping.status(host: jackSession.audioStatus, fallback: startStatus)
                s.route = (follower?.latest ?? route.detected)?.summary
                return s
            }
        } else {
            audioStatus = nil
        }
        session.audioStatus = audioStatus?(MonotonicClock.now()) ?? startStatus
        let server = StudioServer(session: session, options: options, resources: try StudioResources.bundled(), tap: tap,
                                  log: { StandardOutput.line($0) }, audioStatus: audioStatus)
        let midi = driver?.deliverControlChanges(to: { session.receiveMIDI($0) }, stop: stop)
        if let browser {
            // One of the server's loops hands the blocks on to the sockets: no sender thread woken per group.
            do { try browser.handOn(from: StudioServer.sharedEventLoop()) } catch {
                StandardOutput.line("studio: browser audio hands its blocks on from a thread of its own (\(error))")
            }
            browser.start(stop: stop)
        }

        // The shared OSC input, with the pages' cameras (their faces enter as any sender's do).
        let tracker = StudioSourceTracker(MergedDatagramSource([UDPDatagramSource(host: oscHost, port: oscPort), camera.input]))
        let input = LiveHost(source: tracker, instrument: liveInstrument, stop: stop,
                             options: LiveHostOptions(allow: try oscAllowList(), statusInterval: 0.5))
        do { try input.start() } catch { throw ValidationError("cannot listen for OSC on udp \(oscHost):\(oscPort): \(error)") }

        // The server on Swift concurrency's threads; this thread runs JACK or waits for the stop.
        let served = LiveStop()
        let failure = ServerFailure()
        Task.detached {
            do { try await server.run(stop: stop) } catch {
                failure.set("\(error)")
                stop.request(.failed("server: \(error)"))
            }
            served.request(.requested)
        }
        guard server.waitUntilListening() != nil else {
            stop.request(.failed("server did not start"))
            served.wait(timeout: .seconds(2))
            throw ValidationError("cannot serve on \(host):\(port): \(failure.message ?? "the server did not start")")
        }
        let lanHost = StudioSecurity.isLoopback(host) ? nil : (host == "0.0.0.0" || host == "::" ? StudioNetwork.localAddresses().first : host)
        // The studio's own camera (--camera): its frames to the camera desk, tracked and previewed like a page's.
        let studioCamera = try self.camera.map { device in
            let source: CameraDeviceProcess.Source
            do throws(CameraBridgeUnavailable) { source = try CameraDeviceProcess.resolve(device) } catch { throw ValidationError(error.message) }
            let process = CameraDeviceProcess(source: source)
            process.start(frames: { jpeg, width, height in camera.submitStudioFrame(jpeg: jpeg, width: width, height: height, now: MonotonicClock.now()) },
                          log: { StandardOutput.line("studio: \($0)") })
            return process
        }
        session.info = ["osc": .string("udp \(tracker.localAddress)"), "lanURL": lanHost.map { .string(server.url(host: $0)) } ?? .null,
                        "camera": studioCamera.map { .string($0.source.name) } ?? .null]
        let inputThread = LiveCommand.HostThread(input) { _ in session.sources = tracker.sources }
        // Bound to every interface: this machine opens it on loopback; the LAN URL follows.
        StandardOutput.line("studio: \(server.url(host: host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : nil))")
        // The token is printed once, in the line above: logs that keep the rest never hold it.
        if let lanHost, lanHost != host {
            StandardOutput.line("studio: on the LAN: \(server.url(host: lanHost, withToken: false))"
                + (options.token == nil ? "" : " (with the ?token=… above, or scan the code)"))
        }
        if options.tls == nil && !StudioSecurity.isLoopback(host) && browser == nil {
            StandardOutput.line("studio: a phone on plain HTTP is a controller (sound from JACK here); browser audio needs https (--tls)")
        }
        if browser != nil {
            StandardOutput.line("studio: browser audio: \(StudioBrowserDriver.defaultBlockFrames)-frame blocks at \(Int(StudioBrowserDriver.defaultSampleRate)) Hz; "
                + "open the page and tap Listen" + (jack == nil && mode == .auto ? " (no JACK server runs)" : ""))
            if options.tls == nil && !StudioSecurity.isLoopback(host) {
                StandardOutput.line("studio: browser audio needs a secure context: over plain HTTP only a page on this machine (http://127.0.0.1:…) "
                    + "can listen; for phones serve HTTPS with --tls CERT KEY (mkcert)")
            }
        }
        // The pages' cameras start their bridge on the first frame; say now whether they can.
        do {
            _ = try CameraBridgeLocator.locate()
            StandardOutput.line("studio: page cameras: Use camera on Hecate, Camera on Hands (the camera bridge starts with the first frame; "
                + "phones need https, --tls)")
            if let studioCamera {
                StandardOutput.line("studio: camera \(studioCamera.source.name): its faces or hands play the active instrument; Hecate's and Hands' pages show it")
            }
        } catch {
            StandardOutput.line("studio: page cameras unavailable: \(error.message)")
        }
        let names = session.instrumentList.map(\.name).joined(separator: ", ")
        StandardOutput.line("studio: instruments: \(names.isEmpty ? "none registered" : names); "
            + "audio: \(session.audioStatus.backend.rawValue); OSC input on udp \(tracker.localAddress); Ctrl-C to stop")
        if !noQR, let lanHost, let qr = try? StudioQRCode(text: server.url(host: lanHost)) {
            StandardOutput.line("studio: scan to open on a phone (\(server.url(host: lanHost, withToken: false))\(options.token == nil ? "" : " with the token")):")
            StandardOutput.line(qr.terminalText)
        }

        if let jackSession {
            jackSession.inputClock = inputClock
            jackSession.beforeFinalPeriod = { session.finish(at: MonotonicClock.now()) }
            jackSession.onGraphChange = follower?.graphChanged
            let outcome: LiveSessionOutcome
            do { outcome = try jackSession.run() } catch {
                stop.request(.failed("\(error)"))
                served.wait(timeout: .seconds(2))
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode.failure
            }
            if !outcome.isClean {
                served.wait(timeout: .seconds(2))
                throw ExitCode.failure
            }
        } else {
            stop.wait(timeout: .seconds(1_000_000_000))
        }
        served.wait(timeout: .seconds(2))
        studioCamera?.stop()
        camera.stop()
        settings.wait()
        midi?.wait(timeout: .seconds(2))
        browser?.waitUntilStopped()
        StandardOutput.line("studio: " + server.outbound.summary)
        StandardOutput.line(LiveCommand.summary(stop.reason, inputThread.waitUntilFinished()?.success))
        if let message = failure.message { throw ValidationError("studio server: \(message)") }
    }

    /// Reads the settings file onto the instruments (the output route detected from JACK when it is
    /// `auto`), then saves the settings a second after they change (the session announces each change:
    /// nothing polls) and once more at the stop.
    func startSettings(session: StudioSession, jackRunning: Bool, route: StudioRouteState, stop: LiveStop) -> StudioSettingsSaving {
        let file = settingsPath.map { ProsperoSettingsFile(path: $0) } ?? ProsperoSettingsFile(environment: ProcessInfo.processInfo.environment)
        var saved = ProsperoSettings()
        if !noSettings {
            let loaded = file.load()
            if let warning = loaded.warning { FileHandle.standardError.write(Data("prospero: \(warning)\n".utf8)) }
            saved = loaded.settings
        }
        let detected = jackRunning ? try? JACKOutputRoute.detect(serverName: live.server) : nil
        route.start(detected: detected, automatic: saved.hecateRouteIsAutomatic ? detected?.route ?? .wired : nil)
        if saved.hecateRouteIsAutomatic {
            saved.hecate.route = detected?.route ?? .wired
            StandardOutput.line("studio: output route: " + (detected?.summary ?? "no JACK report of the output device: wired"))
        }
        for refused in session.apply(saved) { FileHandle.standardError.write(Data("prospero: settings: \(refused)\n".utf8)) }
        let done = LiveStop()
        guard !noSettings else {
            done.request(.requested)
            return StudioSettingsSaving(done: done)
        }
        let saver = ProsperoSettingsSaver(file: file, saved: session.currentSettings(over: saved, automaticRoute: route.automatic))
        StandardOutput.line("studio: settings in \(file.path)")
        let base = saved
        let offer: @Sendable () -> Void = {
            if let error = saver.offer(session.currentSettings(over: base, automaticRoute: route.automatic), now: MonotonicClock.now()) {
                FileHandle.standardError.write(Data("prospero: \(error)\n".utf8))
            }
        }
        let saving = Task.detached {
            for await _ in session.changes {
                offer()
                // Written once the settings have stood still for the saver's delay; a change meanwhile waits again.
                try? await Task.sleep(for: .seconds(saver.delay + 0.05))
                if Task.isCancelled { break }
                offer()
            }
        }
        stop.onRequest {
            saving.cancel()
            Task.detached {
                _ = await saving.result
                if let error = saver.flush() { FileHandle.standardError.write(Data("prospero: \(error)\n".utf8)) }
                done.request(.requested)
            }
        }
        return StudioSettingsSaving(done: done)
    }

    /// A new output route (JACK's connections changed): Hecate's route follows while it is the detected one
    /// (a route chosen on the page stays), which moves its limiter ceiling through its own control; the pages
    /// see the `changed` route now and the audio status's route with the next status push. On the live
    /// host's thread (the follower posts it there).
    static func follow(_ detected: OutputRouteDetection, session: StudioSession, route: StudioRouteState) {
        let hecate = session.withInstrument("hecate") { $0.stateJSON() }
        let current = hecate?["route"]?.string.flatMap(OutputRoute.init(rawValue:))
        var line = "studio: output route now: \(detected.summary)"
        if let automatic = route.automatic, let current, current == automatic {
            route.follow(detected.route)
            session.set("hecate.route", to: .string(detected.route.rawValue))
            let playAlong = hecate?["playAlong"]?.bool ?? false
            line += "; hecate limiter \(Int(detected.route.limiterCeiling(playAlong: playAlong))) dBFS"
        } else if let current {
            line += "; hecate keeps its chosen route (\(current.rawValue))"
        }
        StandardOutput.line(line)
    }

    /// The output route: what JACK reported last, and Hecate's route while it is automatic (nil: chosen).
    final class StudioRouteState: Sendable {
        private let state = Mutex<(detected: OutputRouteDetection?, automatic: OutputRoute?)>((nil, nil))
        func start(detected: OutputRouteDetection?, automatic: OutputRoute?) { state.withLock { $0 = (detected, automatic) } }
        /// Hecate now plays the detected `route` (it was automatic and still is).
        func follow(_ route: OutputRoute) { state.withLock { $0.automatic = route } }
        var detected: OutputRouteDetection? { state.withLock { $0.detected } }
        var automatic: OutputRoute? { state.withLock { $0.automatic } }
    }

    /// The settings saver's end (its last save is written before the command returns).
    struct StudioSettingsSaving {
        let done: LiveStop
        func wait() { done.wait(timeout: .seconds(5)) }
    }

    final class ServerFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        func set(_ m: String) { lock.withLock { stored = m } }
        var message: String? { lock.withLock { stored } }
    }
}
