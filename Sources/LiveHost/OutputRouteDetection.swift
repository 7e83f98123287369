import Hecate

/// Where the sound goes, read from what the audio server says about its playback ports: a pure
/// function over port names and aliases, so it is tested with real strings and used by every edge
/// (ProsperoJACK queries the server; the CLI and the studio print the result).
///
/// PipeWire's JACK ports carry the PipeWire node in their names and aliases: a Bluetooth sink is
/// `bluez_output.14_3F_A6_28_DC_51.1:playback_FL` (older PipeWire: `bluez_output.….a2dp-sink`),
/// with an alias naming the device ("WH-1000XM4:playback_FL"); a sound card is
/// `alsa_output.pci-0000_00_1f.3.analog-stereo:playback_FL`. jackd's ports are `system:playback_1`
/// with ALSA aliases (`alsa_pcm:…`). A Bluetooth sink gets Hecate's −14 dBFS play-along ceiling
/// (its codec and the earbuds' own processing clip sooner); anything else counts as wired, since a
/// sound card does not say whether a speaker or headphones are plugged in.
public struct OutputRouteDetection: Sendable, Hashable {
    /// One playback port: its full name and the aliases the server gives it.
    public struct Port: Sendable, Hashable {
        public var name: String
        public var aliases: [String]
        public init(name: String, aliases: [String] = []) {
            self.name = name
            self.aliases = aliases
        }
    }

    public var route: OutputRoute
    /// The name or alias that decided a Bluetooth route, else the first port's name (nil: no ports).
    public var evidence: String?

    /// Lower-case markers of a Bluetooth sink in PipeWire's and BlueALSA's names.
    public static let bluetoothMarkers = ["bluez", "bluetooth", "bluealsa", "a2dp", "headset-head-unit"]

    /// The route of `ports` (the ports the output reaches, or the server's physical playback ports):
    /// Bluetooth when any name or alias carries a Bluetooth marker, wired otherwise.
    public static func detect(_ ports: [Port]) -> OutputRouteDetection {
        for port in ports {
            for text in [port.name] + port.aliases {
                let lower = text.lowercased()
                if bluetoothMarkers.contains(where: { lower.contains($0) }) {
                    return OutputRouteDetection(route: .bluetooth, evidence: text)
                }
            }
        }
        return OutputRouteDetection(route: .wired, evidence: ports.first?.name)
    }

    public init(route: OutputRoute, evidence: String?) {
        self.route = route
        self.evidence = evidence
    }

    /// One line for the terminal: "bluetooth sink (bluez_output.….1:playback_FL): play-along ceiling −14 dBFS".
    public var summary: String {
        switch (route, evidence) {
        case (.bluetooth, let e?): return "bluetooth sink (\(e))"
        case (_, let e?): return "no bluetooth (\(e)): \(route.rawValue)"
        default: return "no playback port: \(route.rawValue)"
        }
    }
}
