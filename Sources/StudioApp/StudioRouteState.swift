import Hecate
import LiveHost
import Synchronization

/// The output route: what JACK reported last, and Hecate's route while it is automatic (nil: chosen on a page).
final class StudioRouteState: Sendable {
    private let state = Mutex<(detected: OutputRouteDetection?, automatic: OutputRoute?)>((nil, nil))

    init() {}

    func start(detected: OutputRouteDetection?, automatic: OutputRoute?) { state.withLock { $0 = (detected, automatic) } }
    /// Hecate now plays the detected `route` (it was automatic and still is).
    func follow(_ route: OutputRoute) { state.withLock { $0.automatic = route } }
    var detected: OutputRouteDetection? { state.withLock { $0.detected } }
    var automatic: OutputRoute? { state.withLock { $0.automatic } }
}
