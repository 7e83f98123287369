import CJACKLoader
import Dispatch

/// An open libjack client handle and the queries every client can make.
/// Not thread-safe: use from one thread at a time. A process should talk to one JACK server at a time:
/// libjack keeps per-process client state (its semaphore table is indexed by a client's number on its
/// server), so clients of two servers open at once in one process can collide.
package final class JACKConnection {
    package let handle: OpaquePointer
    /// The name the server gave the client (JACK appends "-01" … when the name is taken).
    package let name: String
    package let serverName: String?
    private(set) var isClosed = false
    /// Keeps the latency callback out of this client's graph calls (PipeWire's libjack; see the type).
    let graphCalls = JACKGraphCallGate()

    /// Opens a client on `serverName` (nil: `$JACK_DEFAULT_SERVER`, else "default").
    /// Never starts a server.
    package init(clientName: String, serverName: String?) throws(JACKError) {
        try JACKLibrary.load()
        var status: Int32 = 0
        let options = Int32(PJJackNoStartServer)
        let opened: OpaquePointer? = clientName.withCString { name in
            if let serverName {
                return serverName.withCString { pj_jack_client_open(name, options, &status, $0) }
            }
            return pj_jack_client_open(name, options, &status, nil)
        }
        guard let opened else {
            let serverBits = Int32(PJJackServerFailed | PJJackServerError | PJJackShmFailure)
            if status & serverBits != 0 || status == Int32(PJJackFailure) {
                throw .serverUnavailable(serverName: serverName, status: status)
            }
            throw .clientRejected(clientName: clientName, status: status)
        }
        handle = opened
        name = String(cString: pj_jack_get_client_name(opened))
        self.serverName = serverName
    }

    deinit { close() }

    /// Closes the client (also after the server died; libjack still frees the handle).
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = pj_jack_client_close(handle)
    }

    /// How long a close after the server's shutdown may take before libjack counts as stuck.
    package static let closeAfterShutdownLimit: Double = 3

    /// Closes the client after its server shut down, on a thread of its own, waiting at most
    /// ``closeAfterShutdownLimit`` seconds. libjack 1.9 can deadlock here (jack2 issue #395: seen on this
    /// project's busy 2-core VM when jackd got SIGTERM, the close waiting for a lock its own client thread left
    /// held); the session must end all the same. Returns false when the close did not return: the thread and
    /// the handle are left behind, and ``JACKLibrary`` refuses every later open (which would block on libjack's
    /// global lock) with ``JACKError/libraryWedged(detail:)``.
    package func closeAfterServerShutdown() -> Bool {
        guard !isClosed else { return true }
        isClosed = true
        let handle = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(self.handle)))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = pj_jack_client_close(OpaquePointer(bitPattern: handle))
            done.signal()
        }
        if done.wait(timeout: .now() + Self.closeAfterShutdownLimit) == .success { return true }
        JACKLibrary.wedged.withLock {
            $0 = $0 ?? "closing client \"\(name)\" after the server's shutdown did not return within \(Int(Self.closeAfterShutdownLimit)) s"
        }
        return false
    }

    package var sampleRate: Int { Int(pj_jack_get_sample_rate(handle)) }
    package var bufferSize: Int { Int(pj_jack_get_buffer_size(handle)) }
    package var isRealtime: Bool { pj_jack_is_realtime(handle) != 0 }
    /// DSP load of the whole graph, in percent of a period.
    package var cpuLoad: Double { Double(pj_jack_cpu_load(handle)) }

    /// Full names of the ports matching `type` and direction (`isInput` nil: both),
    /// optionally only physical ones.
    package func portNames(type: JACKPortType? = nil, isInput: Bool? = nil, physicalOnly: Bool = false) -> [String] {
        var flags = UInt(0)
        if let isInput { flags |= UInt(isInput ? PJJackPortIsInput : PJJackPortIsOutput) }
        if physicalOnly { flags |= UInt(PJJackPortIsPhysical) }
        let list: UnsafeMutablePointer<UnsafePointer<CChar>?>?
        if let type {
            // jack_get_ports treats the type as a regular expression; both standard types are literal-safe.
            list = type.typeString.withCString { pj_jack_get_ports(handle, nil, $0, flags) }
        } else {
            list = pj_jack_get_ports(handle, nil, nil, flags)
        }
        return Self.strings(list)
    }

    /// Everything the server knows about the port named `name`, or nil when there is none.
    package func portInfo(named name: String) -> JACKPortInfo? {
        guard let port = name.withCString({ pj_jack_port_by_name(handle, $0) }) else { return nil }
        let flags = pj_jack_port_flags(port)
        return JACKPortInfo(
            name: String(cString: pj_jack_port_name(port)),
            type: JACKPortType(typeString: String(cString: pj_jack_port_type(port))),
            isInput: flags & Int32(PJJackPortIsInput) != 0,
            isPhysical: flags & Int32(PJJackPortIsPhysical) != 0,
            connections: Self.strings(pj_jack_port_get_all_connections(handle, port))
        )
    }

    /// Connects `source` (an output port) to `destination` (an input port). Connecting an
    /// already connected pair succeeds. Returns true when this call made the connection.
    @discardableResult
    package func connect(_ source: String, to destination: String) throws(JACKError) -> Bool {
        guard let from = portInfo(named: source) else {
            // Offer the sources that could feed this destination.
            throw .portNotFound(name: source, available: portNames(type: portInfo(named: destination)?.type, isInput: false))
        }
        guard let to = portInfo(named: destination) else {
            throw .portNotFound(name: destination, available: portNames(type: from.type, isInput: true))
        }
        if from.connections.contains(to.name) { return false }
        let code = graphCalls.graphCall { from.name.withCString { s in to.name.withCString { d in pj_jack_connect(handle, s, d) } } }
        // EEXIST: connected meanwhile.
        guard code == 0 || code == 17 else {
            throw .connectionFailed(source: from.name, destination: to.name, code: code)
        }
        return code == 0
    }

    private static func strings(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
        guard let list else { return [] }
        defer { pj_jack_free(list) }
        var result: [String] = []
        var i = 0
        while let entry = list[i] {
            result.append(String(cString: entry))
            i += 1
        }
        return result
    }
}
