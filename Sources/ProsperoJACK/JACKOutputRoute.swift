import CJACKLoader
import LiveHost

/// Asks the JACK server where the sound goes: the ports `outputs` are connected to (when given and
/// connected), else the server's physical playback ports, each with its aliases (PipeWire names the
/// node there, e.g. `bluez_output.….1:playback_FL`), for ``OutputRouteDetection``.
public enum JACKOutputRoute {
    /// The playback ports and their aliases. Opens (and closes) a short-lived client.
    public static func playbackPorts(serverName: String? = nil, outputs: [String] = [],
                                     clientName: String = "prospero-route") throws(JACKError) -> [OutputRouteDetection.Port] {
        let connection = try JACKConnection(clientName: clientName, serverName: serverName)
        defer { connection.close() }
        var names: [String] = []
        for output in outputs {
            for c in connection.portInfo(named: output)?.connections ?? [] where !names.contains(c) { names.append(c) }
        }
        if names.isEmpty { names = connection.portNames(type: .audio, isInput: true, physicalOnly: true) }
        return names.map { name in OutputRouteDetection.Port(name: name, aliases: aliases(of: name, in: connection)) }
    }

    /// The route JACK reports (see ``playbackPorts(serverName:outputs:clientName:)``).
    public static func detect(serverName: String? = nil, outputs: [String] = []) throws(JACKError) -> OutputRouteDetection {
        OutputRouteDetection.detect(try playbackPorts(serverName: serverName, outputs: outputs))
    }

    static func aliases(of name: String, in connection: JACKConnection) -> [String] {
        guard pj_jack_has_port_aliases() != 0,
              let port = name.withCString({ pj_jack_port_by_name(connection.handle, $0) }) else { return [] }
        // jack_port_name_size() is 320 in JACK 1 and 2 and 256+ in PipeWire; 1024 leaves room.
        let capacity = 1024
        var first = [CChar](repeating: 0, count: capacity)
        var second = [CChar](repeating: 0, count: capacity)
        let count = first.withUnsafeMutableBufferPointer { a in
            second.withUnsafeMutableBufferPointer { b in pj_jack_port_get_aliases(port, a.baseAddress, b.baseAddress, capacity) }
        }
        guard count > 0 else { return [] }
        return [first, second].prefix(Int(min(count, 2))).map { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }.filter { !$0.isEmpty }
    }
}
