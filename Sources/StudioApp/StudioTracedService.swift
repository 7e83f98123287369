import ServiceLifecycle
import Synchronization

/// A service of the studio under its name, whose end is written down in the order the parts ended
/// (``StudioApp/stopOrder``: what the shutdown-order test reads).
struct StudioTracedService: Service {
    let name: String
    let service: any Service
    let ended: @Sendable (String) -> Void

    func run() async throws {
        defer { ended(name) }
        try await service.run()
    }
}
