import CameraBridge
import CameraTools
import Enobarbus
import Foundation
import HiSynthLibrary
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import ServiceLifecycle
import Studio
import StudioServer

/// The studio built from a ``StudioConfiguration``: the instruments from the registry, the audio driver (JACK or the
/// browser) given to the session at construction, the settings read onto them, the server, the shared OSC input
/// (bound here, so that a taken port is an error before anything starts) and the cameras; and its services in the
/// order they start. The service group stops them in reverse: the server stops accepting, the notes end, the
/// settings are written, the server's sockets close, the cameras stop, the input's socket closes, MIDI-in stops
/// and the audio driver ends (JACK's final period, then its client closes).
final class StudioAssembly: Sendable {
    let configuration: StudioConfiguration
    let session: StudioSession
    let server: StudioServerService
    let serverOptions: StudioServerOptions
    /// The JACK server found at start (nil: none, or not asked for).
    let jack: JACKServerStatus?
    let jackAudio: StudioJACKService?
    let browser: StudioBrowserDriver?
    let tracker: StudioSourceTracker
    let input: StudioInputService
    let ownCamera: CameraDeviceProcess?
    /// Every long-running part and stop step, in start order (the group stops them in reverse).
    let services: [(name: String, service: any Service)]

    /// Builds the studio; `stop` is the one stop that ends it (signals, the duration, a failing part).
    init(_ configuration: StudioConfiguration, stop: LiveStop) throws(StudioAppError) {
        self.configuration = configuration
        func invalid(_ message: String) -> StudioAppError { StudioAppError(.invalid, message) }
        for problem in configuration.hecatePackProblems { StandardOutput.line("studio: hecate pack \(problem)") }
        // Touches are due on JACK's clock at their arrival plus the input delay, as the live commands' input.
        let inputClock = JACKInputClock(delay: configuration.inputDelay)
        // MIDI clock on JACK's midi_in: the tempo Hecate follows, as in `prospero hecate`.
        let midiClock = MIDIClockFollower()
        let instruments: [any StudioInstrument]
        do {
            // HiSynth's user presets: the files `prospero hisynth presets` lists, read and written here at the edge.
            instruments = try StudioInstrumentRegistry.standard(
                hecatePacks: configuration.hecatePacks, frameClock: inputClock, midiClock: midiClock, hisynthPresets: HiSynthPresetLibrary(),
                hecateMIDIChannel: configuration.hecateMIDIChannel
            ).entries.map { try $0.make() }
        } catch {
            throw invalid("an instrument could not start: \(error)")
        }
        let engines = instruments.map(\.audio)
        let first: Int? = instruments.isEmpty ? nil : 0

        var options = StudioServerOptions()
        options.host = configuration.host
        options.port = configuration.port
        options.token = configuration.token ?? (StudioSecurity.isLoopback(configuration.host) ? nil : StudioToken.random())
        options.tls = configuration.tls
        options.executor = configuration.executor
        options.limits = configuration.limits
        if configuration.host == "0.0.0.0" || configuration.host == "::" { options.extraHosts = Set(StudioNetwork.localAddresses()) }
        serverOptions = options

        // Audio: JACK when asked (or found, for auto), the browser when asked (or no JACK, for auto), else nothing renders.
        // The driver is made before the session and given to it.
        let mode = configuration.audio
        let jackOptions = configuration.jack
        var jack: JACKServerStatus?
        if mode == .jack || mode == .auto {
            jack = try? JACKServerStatus.query(serverName: jackOptions.client.serverName)
            if jack == nil && mode == .jack {
                throw invalid("--audio jack: no JACK server is running (start one, or use --audio none)")
            }
        }
        self.jack = jack
        let tap = StudioMeterTap()
        let fanOut = StudioFanOut()
        let driver = jack.map { _ in StudioJACKDriver(engines: engines, active: first, tap: tap, clock: midiClock) }
        let browser = jack == nil && (mode == .browser || mode == .auto)
            ? StudioBrowserDriver(engines: engines, active: first, tap: tap, fanOut: fanOut, blocksPerWake: configuration.browserGroup) : nil
        self.browser = browser
        // The pages' cameras: one camera bridge process for the studio, started on the first frame a page sends.
        let camera = StudioCameraDesk(bridge: CameraBridgeProcess(), log: { StandardOutput.line("studio: \($0)") })
        let session = StudioSession(instruments: instruments, active: first, audio: driver ?? browser, fanOut: fanOut, camera: camera)
        self.session = session
        let startStatus = StudioAudioStatusMapping.status(
            jack: jack, clientName: jackOptions.client.clientName, note: jack == nil ? "--audio none: nothing renders" : nil)
        // The output route: detected at start and, with JACK, again whenever the connections change.
        let route = StudioRouteState()
        let settings = StudioSettingsService.load(configuration, session: session, jackRunning: jack != nil, route: route)
        // The shared OSC input's instrument; the route follower's work runs on its thread, as in `prospero hecate`.
        let liveInstrument = LiveInstrumentMailbox(base: StudioLiveInstrument(session: session))
        let follower = driver.map { _ in
            OutputRouteFollower(initial: route.detected, serverName: jackOptions.client.serverName) { detected in
                liveInstrument.post { route.follow(detected, session: session) }
            }
        }
        let jackAudio = driver.map {
            StudioJACKService(driver: $0, options: jackOptions, inputClock: inputClock, studio: stop,
                              beforeFinalPeriod: { session.finish(at: MonotonicClock.now()) }, onGraphChange: follower?.graphChanged)
        }
        self.jackAudio = jackAudio
        let audioStatus: (@Sendable (Double) -> StudioAudioStatus)?
        if let browser {
            audioStatus = { browser.status(at: $0) }
        } else if let jackAudio {
            audioStatus = { _ in
                var s = StudioAudioStatusMapping.status(host: jackAudio.audioStatus, fallback: startStatus)
                s.route = (follower?.latest ?? route.detected)?.summary
                return s
            }
        } else {
            audioStatus = nil
        }
        session.audioStatus = audioStatus?(MonotonicClock.now()) ?? startStatus
        let resources: StudioResources
        do { resources = try StudioResources.bundled() } catch { throw invalid("the studio's pages are missing: \(error)") }
        let server = StudioServerService(
            server: StudioServer(session: session, options: options, resources: resources, tap: tap,
                                 log: { StandardOutput.line($0) }, audioStatus: audioStatus),
            studio: stop)
        self.server = server
        if let browser {
            // The loop the listening sockets live on hands the blocks on to them: no sender thread woken per group.
            // And that loop, awake for each group, runs the studio's tick when it is due: no wake-up of its own.
            let studioServer = server.server
            browser.afterGroup = { studioServer.rideAlong(onLoop: $0) }
            do { try browser.handOn(from: StudioServer.eventLoops) } catch {
                StandardOutput.line("studio: browser audio hands its blocks on from a thread of its own (\(error))")
            }
        }

        // The shared OSC input, with the pages' cameras (their faces enter as any sender's do).
        let tracker = StudioSourceTracker(MergedDatagramSource([UDPDatagramSource(host: configuration.oscHost, port: configuration.oscPort), camera.input]))
        self.tracker = tracker
        let host = LiveHost(source: tracker, instrument: liveInstrument, stop: LiveStop(),
                            options: LiveHostOptions(allow: try configuration.oscAllowList(), statusInterval: 0.5))
        do { try host.start() } catch {
            throw invalid("cannot listen for OSC on udp \(configuration.oscHost):\(configuration.oscPort): \(error)")
        }
        input = StudioInputService(host: host, studio: stop) { _ in session.sources = tracker.sources }
        // The studio's own camera (--camera): its frames to the camera desk, tracked and previewed like a page's.
        ownCamera = try configuration.camera.map { device throws(StudioAppError) in
            do throws(CameraBridgeUnavailable) { return CameraDeviceProcess(source: try CameraDeviceProcess.resolve(device)) } catch {
                throw invalid(error.message)
            }
        }

        var services: [(String, any Service)] = []
        if let jackAudio { services.append(("JACK audio", jackAudio)) }
        if let browser { services.append(("browser audio", StudioBrowserAudioService(driver: browser, studio: stop))) }
        if let driver { services.append(("MIDI in", StudioMIDIInService(driver: driver, session: session, studio: stop))) }
        services.append(("input", input))
        services.append(("cameras", StudioCameraService(desk: camera, own: ownCamera)))
        services.append(("server", server))
        services.append(("settings", settings))
        services.append(("notes", StudioShutdownStep { session.finish(at: MonotonicClock.now()) }))
        services.append(("stop accepting", StudioShutdownStep { await server.server.stopAccepting() }))
        self.services = services
    }
}
