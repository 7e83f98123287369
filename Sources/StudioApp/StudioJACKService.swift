import Foundation
import LiveHost
import LiveHostPOSIX
import ProsperoJACK
import StudioServer
import ServiceLifecycle
import Synchronization

/// The studio's sound through JACK as a service: the ``LiveSession`` of the studio's JACK driver, on a thread of
/// its own. It starts once the studio has said where it is (``begin()``) and is the last part to stop: its final
/// period ends the notes still sounding, then the client closes. A session that fails (no server, the server
/// went away) stops the whole studio with that reason.
final class StudioJACKService: Service, Sendable {
    /// The client's status now (any thread): what the pages' audio status is made from.
    var audioStatus: AudioHostStatus { session.audioStatus }
    /// Why the session failed, once it did (nil: it ran and stopped as asked).
    var failure: String? { failed.withLock { $0 } }

    private let session: LiveSession
    private let stop: LiveStop
    private let studio: LiveStop
    private let started = LiveStop()
    private let failed = Mutex<String?>(nil)

    /// - Parameters:
    ///   - studio: the studio's stop: its reason is the session's, and a failing session requests it.
    ///   - beforeFinalPeriod: runs once the session is stopping, before its final period (the notes end there).
    ///   - onGraphChange: JACK's connections changed and settled (``LiveSession/onGraphChange``).
    init(driver: StudioJACKDriver, options: LiveSessionOptions, inputClock: JACKInputClock, studio: LiveStop,
         beforeFinalPeriod: @escaping @Sendable () -> Void, onGraphChange: (@Sendable ([String]) -> Void)?) {
        var options = options
        // The studio's one stop ends everything: no duration or signal handling of the session's own.
        options.duration = nil
        options.handlesSignals = false
        let stop = LiveStop()
        session = LiveSession(handler: driver, options: options, stop: stop, log: { StandardOutput.line($0) },
                              inputClock: inputClock, beforeFinalPeriod: beforeFinalPeriod, onGraphChange: onGraphChange)
        self.stop = stop
        self.studio = studio
        stop.onRequest { [started] in started.request(.requested) }
    }

    /// The studio has printed where it is: the session may start (its lines follow the studio's).
    func begin() { started.request(.requested) }

    func run() async {
        await StudioPart.stopping(stop, reason: studio) {
            await StudioPart.wait(for: started)
            guard !stop.isRequested else { return }
            let session = self.session
            let result = await StudioPart.onThread("studio JACK") { Result { () throws(JACKError) in try session.run() } }
            let failure: String?
            switch result {
            case .success(let outcome): failure = outcome.isClean ? nil : "\(outcome)"
            case .failure(let error): failure = "\(error)"
            }
            if let failure {
                failed.withLock { $0 = failure }
                studio.request(.failed(failure))
            }
        }
    }
}
