import LiveHost
import ServiceLifecycle
import StudioServer
import Synchronization

/// The studio's web server in the studio's service group: a server that fails (a taken port, unreadable TLS
/// files) stops the whole studio with that reason, kept for the front end to report.
final class StudioServerService: Service, Sendable {
    let server: StudioServer
    /// Why the server failed, once it did.
    var failure: String? { failed.withLock { $0 } }

    private let studio: LiveStop
    private let failed = Mutex<String?>(nil)

    init(server: StudioServer, studio: LiveStop) {
        self.server = server
        self.studio = studio
    }

    func run() async throws {
        do { try await server.run() } catch {
            failed.withLock { $0 = "\(error)" }
            studio.request(.failed("server: \(error)"))
            throw error
        }
        // A server that ended by itself (not asked to) ends the studio.
        studio.request(.failed("the studio server ended"))
    }
}
