import Enobarbus
import Foundation
import InstrumentSettings
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import ProsperoSettingsFiles
import ServiceLifecycle
import Studio

/// The settings file as a service: read onto the instruments when the studio is built (``load(_:session:jackRunning:route:)``),
/// saved a second after the settings change (the session announces each change: nothing polls), and once more
/// when the studio stops, after the notes ended and before the sockets close.
final class StudioSettingsService: Service, Sendable {
    private let session: StudioSession
    private let saver: ProsperoSettingsSaver?
    private let base: ProsperoSettings
    private let route: StudioRouteState

    private init(session: StudioSession, saver: ProsperoSettingsSaver?, base: ProsperoSettings, route: StudioRouteState) {
        self.session = session
        self.saver = saver
        self.base = base
        self.route = route
    }

    /// Reads the settings file onto `session`'s instruments (Hecate's route, when `auto`, is the one JACK reports
    /// when `jackRunning`; wired without JACK) and starts `route` from it; the service that saves them from now on.
    static func load(_ configuration: StudioConfiguration, session: StudioSession, jackRunning: Bool, route: StudioRouteState)
        -> StudioSettingsService {
        let file = configuration.settingsPath.map { ProsperoSettingsFile(path: $0) } ?? ProsperoSettingsFile(environment: configuration.environment)
        var saved = ProsperoSettings()
        if !configuration.noSettings {
            let loaded = file.load()
            if let warning = loaded.warning { FileHandle.standardError.write(Data("prospero: \(warning)\n".utf8)) }
            saved = loaded.settings
        }
        let detected = jackRunning ? try? JACKOutputRoute.detect(serverName: configuration.jack.client.serverName) : nil
        route.start(detected: detected, automatic: saved.hecateRouteIsAutomatic ? detected?.route ?? .wired : nil)
        if saved.hecateRouteIsAutomatic {
            saved.hecate.route = detected?.route ?? .wired
            StandardOutput.line("studio: output route: " + (detected?.summary ?? "no JACK report of the output device: wired"))
        }
        for refused in session.apply(saved) { FileHandle.standardError.write(Data("prospero: settings: \(refused)\n".utf8)) }
        guard !configuration.noSettings else { return StudioSettingsService(session: session, saver: nil, base: saved, route: route) }
        let saver = ProsperoSettingsSaver(file: file, saved: session.currentSettings(over: saved, automaticRoute: route.automatic))
        StandardOutput.line("studio: settings in \(file.path)")
        return StudioSettingsService(session: session, saver: saver, base: saved, route: route)
    }

    func run() async {
        guard let saver else {
            await StudioPart.untilShutdown()
            return
        }
        let offer: @Sendable () -> Void = { [session, base, route] in
            if let error = saver.offer(session.currentSettings(over: base, automaticRoute: route.automatic), now: MonotonicClock.now()) {
                FileHandle.standardError.write(Data("prospero: \(error)\n".utf8))
            }
        }
        let changes = session.changes
        await cancelWhenGracefulShutdown {
            for await _ in changes {
                offer()
                // Written once the settings have stood still for the saver's delay; a change meanwhile waits again.
                try? await Task.sleep(for: .seconds(saver.delay + 0.05))
                if Task.isCancelled { break }
                offer()
            }
        }
        // The stop: what changed last is written now (the change itself was offered when it came).
        offer()
        if let error = saver.flush() { FileHandle.standardError.write(Data("prospero: \(error)\n".utf8)) }
    }
}
