/// Why talking to JACK failed, phrased so a musician knows what to do next.
public enum JACKError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libjack could not be loaded (`detail` is the loader's message).
    case libraryMissing(detail: String)
    /// libjack loaded but lacks a function Prospero needs (a very old or broken JACK).
    case libraryIncomplete(detail: String)
    /// No server answered. `serverName` is nil for the default server; `status` holds jack_status_t bits.
    case serverUnavailable(serverName: String?, status: Int32)
    /// The server refused the client (`status` holds jack_status_t bits).
    case clientRejected(clientName: String, status: Int32)
    /// jack_port_register failed for the named port.
    case portRegistrationFailed(port: String)
    /// jack_activate failed with the given code.
    case activationFailed(code: Int32)
    /// No port with this full name exists; `available` lists ports of the wanted kind.
    case portNotFound(name: String, available: [String])
    /// jack_connect failed for an existing pair of ports.
    case connectionFailed(source: String, destination: String, code: Int32)
    /// The server went away while the client was running.
    case serverShutDown(reason: String)
    /// libjack stopped answering in this process: closing a client after its server shut down did not return
    /// (`detail` says which). Its lock stays held, so no client can open in this process again.
    case libraryWedged(detail: String)

    static let remedy = """
        Start a JACK server first, e.g. `jackd -d alsa` (sound card) or `jackd -d dummy` (no hardware), \
        or install PipeWire's JACK support (Debian: `apt install pipewire-jack`); \
        or render offline to a WAV file instead.
        """

    public var description: String {
        switch self {
        case .libraryMissing(let detail):
            return "JACK is not installed: libjack could not be loaded (\(detail)). "
                + "Install it (Debian: `apt install jackd2`, or `apt install pipewire-jack` for PipeWire), "
                + "or render offline to a WAV file instead."
        case .libraryIncomplete(let detail):
            return "The installed libjack is unusable (\(detail)); install JACK 2 (`apt install jackd2`) or pipewire-jack."
        case .serverUnavailable(let serverName, let status):
            let which = serverName.map { "JACK server \"\($0)\"" } ?? "the default JACK server"
            return "Cannot connect to \(which): no server is running (jack status 0x\(String(status, radix: 16))). "
                + Self.remedy
        case .clientRejected(let clientName, let status):
            return "The JACK server refused client \"\(clientName)\" (jack status 0x\(String(status, radix: 16)))."
        case .portRegistrationFailed(let port):
            return "JACK could not register port \"\(port)\" (name taken or server out of ports)."
        case .activationFailed(let code):
            return "JACK could not activate the client (error \(code))."
        case .portNotFound(let name, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "No JACK port named \"\(name)\". Available: \(list)."
        case .connectionFailed(let source, let destination, let code):
            return "JACK could not connect \(source) → \(destination) (error \(code))."
        case .serverShutDown(let reason):
            return "The JACK server shut down: \(reason)"
        case .libraryWedged(let detail):
            return "libjack is stuck in this process (\(detail)): a deadlock inside libjack after a server shutdown "
                + "(jack2 issue #395). Start prospero again to reconnect."
        }
    }
}
