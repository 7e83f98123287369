/// A snapshot of a running JACK server, as `prospero jack status` prints it.
public struct JACKServerStatus: Sendable, Hashable {
    /// The server asked for (nil: the default server).
    public var serverName: String?
    /// libjack's version string.
    public var libraryVersion: String
    /// Hz.
    public var sampleRate: Int
    /// Period in frames.
    public var bufferSize: Int
    public var isRealtime: Bool
    /// DSP load of the graph in percent of a period.
    public var cpuLoad: Double
    /// Every port on the server, in the server's order.
    public var ports: [JACKPortInfo]

    public init(
        serverName: String?, libraryVersion: String, sampleRate: Int, bufferSize: Int,
        isRealtime: Bool, cpuLoad: Double, ports: [JACKPortInfo]
    ) {
        self.serverName = serverName
        self.libraryVersion = libraryVersion
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.isRealtime = isRealtime
        self.cpuLoad = cpuLoad
        self.ports = ports
    }

    /// Connects briefly as `clientName` (registering no ports) and reads the server's state.
    public static func query(serverName: String? = nil, clientName: String = "prospero-status") throws(JACKError) -> JACKServerStatus {
        let connection = try JACKConnection(clientName: clientName, serverName: serverName)
        defer { connection.close() }
        return JACKServerStatus(
            serverName: serverName,
            libraryVersion: JACKLibrary.version,
            sampleRate: connection.sampleRate,
            bufferSize: connection.bufferSize,
            isRealtime: connection.isRealtime,
            cpuLoad: connection.cpuLoad,
            ports: connection.portNames().compactMap { connection.portInfo(named: $0) }
        )
    }

    /// The period in milliseconds.
    public var periodMilliseconds: Double { Double(bufferSize) * 1000 / Double(max(sampleRate, 1)) }
}
