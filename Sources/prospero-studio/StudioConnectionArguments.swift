import ArgumentParser
import StudioApp
import StudioServer

/// The studio's connection caps and timeouts on the command line (``StudioConnectionLimits``: defaults and ranges there).
struct StudioConnectionArguments: ParsableArguments {
    @Option(name: .customLong("max-connections"), help: "Open connections at most; more are closed on arrival (default \(StudioConnectionLimits().maximumConnections)).")
    var maximumConnections = StudioConnectionLimits().maximumConnections

    @Option(name: .customLong("max-connections-per-address"), help: ArgumentHelp(
        "Open connections from one address at most (an IPv4 address, an IPv6 /64; all of 127.0.0.0/8 is one) (default \(StudioConnectionLimits().maximumConnectionsPerAddress)).",
        valueName: "N"))
    var maximumConnectionsPerAddress = StudioConnectionLimits().maximumConnectionsPerAddress

    @Option(name: .customLong("handshake-timeout"), help: ArgumentHelp("Seconds a TLS handshake may take (default \(Int(StudioConnectionLimits().handshakeTimeout))).", valueName: "SECONDS"))
    var handshakeTimeout = StudioConnectionLimits().handshakeTimeout

    @Option(name: .customLong("header-timeout"), help: ArgumentHelp("Seconds from connecting to a whole first request head (default \(Int(StudioConnectionLimits().headerTimeout))).", valueName: "SECONDS"))
    var headerTimeout = StudioConnectionLimits().headerTimeout

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds a keep-alive connection may wait for its next request, and a WebSocket for its hello (default \(Int(StudioConnectionLimits().idleTimeout))).",
        valueName: "SECONDS"))
    var idleTimeout = StudioConnectionLimits().idleTimeout

    @Option(name: .customLong("write-timeout"), help: ArgumentHelp(
        "Seconds a client may leave bytes unread before it is disconnected (default \(Int(StudioConnectionLimits().writeTimeout))).",
        valueName: "SECONDS"))
    var writeTimeout = StudioConnectionLimits().writeTimeout

    var limits: StudioConnectionLimits {
        var l = StudioConnectionLimits()
        l.maximumConnections = maximumConnections
        l.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        l.handshakeTimeout = handshakeTimeout
        l.headerTimeout = headerTimeout
        l.idleTimeout = idleTimeout
        l.writeTimeout = writeTimeout
        return l
    }

    func validate() throws {
        guard var problem = limits.problem else { return }
        // The limit as it is spelled here.
        for (name, option) in [("maximum connections per address", "--max-connections-per-address"), ("maximum connections", "--max-connections"),
                               ("handshake timeout", "--handshake-timeout"), ("header timeout", "--header-timeout"),
                               ("idle timeout", "--idle-timeout"), ("write timeout", "--write-timeout")] where problem.hasPrefix(name) {
            problem = option + problem.dropFirst(name.count)
            break
        }
        throw ValidationError(problem)
    }
}
