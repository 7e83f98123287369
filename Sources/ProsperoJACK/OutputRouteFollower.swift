import LiveHost
import Synchronization

/// Follows where a live session's outputs play: given to ``LiveSession/onGraphChange`` (which calls it once
/// the server's connections have stood still for ``LiveSession/graphSettleTime``), it asks the server again
/// (``JACKOutputRoute/detect(serverName:outputs:)``) and calls `changed` when the route differs from the last
/// one, on the session's thread. `prospero hecate` and `prospero studio` both follow the route through it.
///
///     let follower = OutputRouteFollower(initial: detected, serverName: server) { now in
///         mailbox.post { host.send(.output(playAlong: true, route: now.route)) }
///     }
///     let session = LiveSession(handler: handler, options: options, onGraphChange: follower.graphChanged)
public final class OutputRouteFollower: Sendable {
    private let serverName: String?
    private let current: Mutex<OutputRouteDetection?>
    private let changed: @Sendable (OutputRouteDetection) -> Void

    /// - Parameters:
    ///   - initial: what was detected at start (nil: nothing yet; the first detection then counts as a change
    ///     only when it is not wired, the route everything starts from).
    ///   - changed: the new route, on the session's thread; keep it short.
    public init(initial: OutputRouteDetection?, serverName: String?, changed: @escaping @Sendable (OutputRouteDetection) -> Void) {
        self.serverName = serverName
        current = Mutex(initial)
        self.changed = changed
    }

    /// The route detected last (nil before any).
    public var latest: OutputRouteDetection? { current.withLock { $0 } }

    /// ``LiveSession/onGraphChange``: re-detects the route of `outputs` and reports a new one.
    public var graphChanged: @Sendable ([String]) -> Void {
        { [self] outputs in
            guard let detected = try? JACKOutputRoute.detect(serverName: serverName, outputs: outputs) else { return }
            let isNew = current.withLock { last in
                defer { last = detected }
                return (last?.route ?? .wired) != detected.route
            }
            if isNew { changed(detected) }
        }
    }
}
