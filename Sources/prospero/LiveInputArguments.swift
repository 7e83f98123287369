import ArgumentParser
import LiveHost
import LiveHostPOSIX

/// The network input options of every live command that listens for OSC: where to listen and
/// whom to accept.
struct LiveInputArguments: ParsableArguments {
    @Option(help: "UDP port for OSC input.")
    var port: Int = 9000

    @Option(help: "Interface to bind: 127.0.0.1 (default) accepts this machine only; another address or 0.0.0.0 accepts the --allow list.")
    var host: String = "127.0.0.1"

    @Option(help: "Accept senders from this network when bound beyond loopback (repeatable): 192.168.1.0/24, 10.0.0.7, ::1, or any. Default: loopback and the bound interface's own subnets.")
    var allow: [String] = []

    @Option(help: "OSC datagrams queued at most before the oldest are dropped (counted in the status).")
    var inbox: Int = 4096

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (1...1_000_000).contains(inbox) else { throw ValidationError("--inbox must be 1…1000000") }
        _ = try allowList()
    }

    /// The senders accepted: `--allow` (plus loopback), else the default for the bound host.
    func allowList() throws -> SenderAllowList {
        guard !allow.isEmpty else { return .defaultFor(bindHost: host) }
        do {
            var list = try SenderAllowList(parsing: allow)
            list.formUnion(.loopback)
            return list
        } catch {
            throw ValidationError("--allow: \(error)")
        }
    }

    func hostOptions(tick: Double = 0.01, statusInterval: Double = 1) throws -> LiveHostOptions {
        LiveHostOptions(allow: try allowList(), inboxCapacity: inbox, tick: tick, statusInterval: statusInterval)
    }

    func source() -> UDPDatagramSource { UDPDatagramSource(host: host, port: port) }
}
