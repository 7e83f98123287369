import ArgumentParser
import Enobarbus
import LiveHost
import LiveHostPOSIX

/// The network input options of every live command that listens for tracking input: where to listen,
/// whom to accept, a phone app to call (iFacialMocap) and Wekinator to feed. Every sender Enobarbus
/// knows (OSC, iFacialMocap text, Live Link Face binary) is detected per datagram on the one port.
struct LiveInputArguments: ParsableArguments {
    @Option(name: .customLong("port"), help: "UDP port for tracking input (default 9000; 49983 with --ifacialmocap).")
    var portOption: Int?

    @Option(name: .customLong("host"), help: "Interface to bind: 127.0.0.1 (default) accepts this machine only; another address or 0.0.0.0 accepts the --allow list (default 0.0.0.0 with --ifacialmocap).")
    var hostOption: String?

    @Option(help: "Accept senders from this network when bound beyond loopback (repeatable): 192.168.1.0/24, 10.0.0.7, ::1, or any. Default: loopback and the bound interface's own subnets.")
    var allow: [String] = []

    @Option(help: "Datagrams queued at most before the oldest are dropped (counted in the status).")
    var inbox: Int = 4096

    @Option(name: .customLong("ifacialmocap"), help: ArgumentHelp(
        "Ask the iFacialMocap app on this phone (its IP address) to stream here: sends its handshake (again every 2 s until it answers) and listens on its port 49983.",
        valueName: "phone-address"))
    var iFacialMocapPhone: String?

    @Option(name: .customLong("wekinator"), defaultAsFlag: WekinatorFeed.defaultDestination.description, help: ArgumentHelp(
        "Send feature vectors (52 blendshapes + 63 coordinates of hand 0: 115 inputs) to Wekinator's /wek/inputs at HOST:PORT (default 127.0.0.1:6448). Its /wek/outputs, sent to this port, play the instrument.",
        valueName: "host:port"))
    var wekinator: String?

    /// The UDP port listened on.
    var port: Int { portOption ?? (iFacialMocapPhone != nil ? IFacialMocapHandshake.iFacialMocap(version2: false).receiverPort : 9000) }
    /// The interface bound: the phone must reach it, so `--ifacialmocap` binds every interface by default.
    var host: String { hostOption ?? (iFacialMocapPhone != nil ? "0.0.0.0" : "127.0.0.1") }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (1...1_000_000).contains(inbox) else { throw ValidationError("--inbox must be 1…1000000") }
        if let phone = iFacialMocapPhone, SenderAllowList.parseIPv4(Substring(phone)) == nil {
            throw ValidationError("--ifacialmocap needs the phone's IPv4 address (shown in the app), e.g. 192.168.1.20, not '\(phone)'")
        }
        _ = try wekinatorDestination()
        _ = try allowList()
    }

    /// Where `--wekinator` sends, nil without it.
    func wekinatorDestination() throws -> DatagramSender? {
        guard let wekinator else { return nil }
        let parts = wekinator.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port) else {
            throw ValidationError("--wekinator takes HOST:PORT (e.g. 127.0.0.1:6448), not '\(wekinator)'")
        }
        return DatagramSender(address: String(parts[0]), port: port)
    }

    /// The senders accepted: `--allow` (plus loopback), else the default for the bound host; the phone
    /// of `--ifacialmocap` always.
    func allowList() throws -> SenderAllowList {
        var list: SenderAllowList
        if allow.isEmpty {
            list = .defaultFor(bindHost: host)
        } else {
            do {
                list = try SenderAllowList(parsing: allow)
                list.formUnion(.loopback)
            } catch {
                throw ValidationError("--allow: \(error)")
            }
        }
        if let phone = iFacialMocapPhone, let ip = SenderAllowList.parseIPv4(Substring(phone)) {
            list.formUnion(SenderAllowList(networks: [.init(address: ip, prefixLength: 32)]))
        }
        return list
    }

    func hostOptions(tick: Double = 0.01, statusInterval: Double = 1) throws -> LiveHostOptions {
        LiveHostOptions(
            allow: try allowList(), inboxCapacity: inbox, tick: tick, statusInterval: statusInterval,
            wekinator: try wekinatorDestination().map { WekinatorFeed(destination: $0) },
            handshake: iFacialMocapPhone.map { PhoneHandshake.iFacialMocap(phone: $0) })
    }

    func source() -> UDPDatagramSource { UDPDatagramSource(host: host, port: port) }

    /// The socket the host sends its own datagrams from, when `--wekinator` or `--ifacialmocap` needs one.
    func sink() throws -> UDPDatagramSink? {
        guard wekinator != nil || iFacialMocapPhone != nil else { return nil }
        do { return try UDPDatagramSink() } catch { throw ValidationError("cannot open a UDP socket for sending: \(error)") }
    }

    /// What the banner adds for `--ifacialmocap` and `--wekinator` ("" without them).
    var outputsBanner: String {
        var parts: [String] = []
        if let phone = iFacialMocapPhone { parts.append("calling iFacialMocap on \(phone):\(IFacialMocapHandshake.iFacialMocap(version2: false).phonePort)") }
        if let destination = try? wekinatorDestination() { parts.append("Wekinator inputs to \(destination) (\(WekinatorInputEncoder().inputCount) floats)") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }
}
