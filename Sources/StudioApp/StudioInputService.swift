import LiveHost
import ServiceLifecycle
import Studio
import Synchronization

/// The shared OSC input (and the cameras' frames) as a service: the ``LiveHost`` loop on a thread of its own,
/// playing the active instrument. Its socket was bound when the studio was built (a taken port is an error
/// before anything starts); it closes when this service stops, after the server's sockets.
final class StudioInputService: Service, Sendable {
    /// The input's final counters once it stopped (nil before, or when it failed).
    var finalStatus: LiveHostStatus? { final.withLock { $0 } }

    private let host: LiveHost
    private let studio: LiveStop
    private let onStatus: @Sendable (LiveHostStatus) -> Void
    private let final = Mutex<LiveHostStatus?>(nil)

    /// - Parameters:
    ///   - host: stops on its own ``LiveHost/stop``, which this service requests in its turn.
    ///   - onStatus: the host's status, twice a second, on its thread.
    init(host: LiveHost, studio: LiveStop, onStatus: @escaping @Sendable (LiveHostStatus) -> Void) {
        self.host = host
        self.studio = studio
        self.onStatus = onStatus
    }

    func run() async {
        let host = self.host, onStatus = self.onStatus
        let result = await StudioPart.stopping(host.stop, reason: studio) {
            await StudioPart.onThread("live input") { Result { try host.run(onStatus: onStatus) } }
        }
        switch result {
        case .success(let status): final.withLock { $0 = status }
        case .failure(let error): studio.request(.failed("OSC input: \(error)"))
        }
    }
}
