import Foundation
import LiveHost
import LiveHostPOSIX
import Logging
import ProsperoCommandLine
import ServiceLifecycle
import Synchronization

/// The studio's composition root: builds the studio from a ``StudioConfiguration`` (``StudioAssembly``) and runs
/// its services in one service group until its one stop is requested (a signal, the duration, a part that failed),
/// then stops them in order and prints what `prospero studio` has always printed at its end.
///
///     try StudioApp.run(configuration)   // signals and --duration → the stop; returns after the ordered stop
public final class StudioApp: Sendable {
    public let configuration: StudioConfiguration
    /// The one stop: whoever requests it ends the studio.
    public let stop: LiveStop
    let assembly: StudioAssembly
    private let ended = Mutex<[String]>([])

    /// Builds the studio (nothing runs yet); throws when something cannot be: a bad option, no JACK server
    /// with `--audio jack`, a taken OSC port, an instrument that cannot start.
    public init(configuration: StudioConfiguration, stop: LiveStop) throws(StudioAppError) {
        try configuration.validate()
        self.configuration = configuration
        self.stop = stop
        assembly = try StudioAssembly(configuration, stop: stop)
    }

    /// Turns SIGINT/SIGTERM/SIGHUP and the duration into the studio's stop (the live
    /// commands' one signal path, ``LiveCommand/begin(duration:)``), builds the studio (validating `configuration`)
    /// and runs it until then.
    public static func run(_ configuration: StudioConfiguration) throws(StudioAppError) {
        let stop = LiveCommand.begin(duration: configuration.duration)
        try StudioApp(configuration: configuration, stop: stop).run()
    }

    /// The services in the order they ended (the last of a run is the first started: the audio driver).
    public var stopOrder: [String] { ended.withLock { $0 } }

    private func partEnded(_ name: String) { ended.withLock { $0.append(name) } }

    /// The port the server listens on once it does (nil before, or when it could not).
    public var port: Int? { assembly.server.server.boundPort }

    /// Waits up to `timeout` for the server to listen; its port, nil if it did not.
    public func waitUntilListening(timeout: Duration = .seconds(10)) -> Int? {
        assembly.server.server.waitUntilListening(timeout: timeout)
    }

    /// Runs the studio until its stop is requested; returns once every service stopped, in order, and the
    /// summary was printed. Throws when the server could not start or a part failed.
    public func run() throws(StudioAppError) {
        var logger = Logger(label: "prospero.studio.app")
        logger.logLevel = .critical  // the studio reports what matters itself
        var group = ServiceGroupConfiguration(
            services: assembly.services.map { name, service in
                // A part that ends or fails by itself (JACK went away, the server failed) stops the whole studio in order.
                .init(service: StudioTracedService(name: name, service: service) { [self] in partEnded($0) },
                      successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup,
                      serviceName: name)
            },
            logger: logger)
        // Signals reach the studio through its stop only (``SignalStop``), never through the group's own handlers.
        group.gracefulShutdownSignals = []
        group.cancellationSignals = []
        // No time limit on the ordered stop: a part that hangs is ended by a second signal (``SignalStop``: exit at
        // once with 128 + the signal), never by the group's timeout, which ends the process with a fatal error.
        let services = ServiceGroup(configuration: group)
        let finished = LiveStop()
        Task.detached(executorPreference: configuration.executor) {
            try? await services.run()
            finished.request(.requested)
        }
        stop.onRequest { [configuration] in
            Task.detached(executorPreference: configuration.executor) { await services.triggerGracefulShutdown() }
        }

        let listening = waitUntilListening() != nil
        // Not listening: the server failed, or the studio was stopped (Ctrl-C) before it served, which is no error.
        guard listening || stop.reason?.isClean == true else {
            stop.request(.failed("server did not start"))
            finished.wait(timeout: .seconds(5))
            let c = configuration
            throw StudioAppError(.invalid, "cannot serve on \(c.host):\(c.port): \(assembly.server.failure ?? "the server did not start")")
        }
        if listening {
            printBanner()
            assembly.jackAudio?.begin()
        }
        finished.wait(timeout: .seconds(1_000_000_000))

        if let failure = assembly.jackAudio?.failure {
            FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
        }
        StandardOutput.line("studio: " + assembly.server.server.outbound.summary)
        StandardOutput.line("studio: " + assembly.server.server.census.summary)
        let ticks = assembly.server.server.ticks
        StandardOutput.line("studio: \(ticks.all) ticks, \(ticks.ridden) of them on browser audio's wake-ups")
        StandardOutput.line(LiveCommand.summary(stop.reason, assembly.input.finalStatus))
        if let message = assembly.server.failure { throw StudioAppError(.invalid, "studio server: \(message)") }
        if assembly.jackAudio?.failure != nil { throw StudioAppError(.failed, "the JACK session failed") }
    }
}
