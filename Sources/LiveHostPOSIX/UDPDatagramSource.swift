import Enobarbus
import Foundation
import LiveHost
import Synchronization

// Linux's socket API (this edge names Glibc's functions and constants as Linux declares them).
import Glibc

/// A ``DatagramSource`` on a UDP socket: a thread of its own blocks in `poll` and reads every datagram
/// whole, stamping `MonotonicClock.now()` as it is read, and delivers it raw with its sender.
///
/// Plain POSIX sockets rather than an event-loop library: one socket and one reader need nothing more,
/// and `prospero`'s build stays free of SwiftNIO (CONTRIBUTING.md, Layout).
/// Bound to 127.0.0.1 by default; any other address should come with an allow-list on the host.
public final class UDPDatagramSource: DatagramSource, @unchecked Sendable {
    /// Largest datagram read whole (the IPv4 UDP payload limit).
    public static let maximumDatagramSize = 65_507

    /// The socket receive buffer asked for, in bytes (4 MiB: over a second of a Face Cap stream).
    public static let requestedReceiveBuffer = 4 << 20

    public let host: String
    public let port: Int
    private let state = Mutex<State>(State())
    private let finished = DispatchSemaphore(value: 0)

    struct State {
        var socket: Int32 = -1
        /// The reader's wake-up: a byte written here ends its `poll`.
        var wake: (read: Int32, write: Int32) = (-1, -1)
        var bound: UDPSocketAddress?
        var reading = false
    }

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    /// The socket's receive buffer as the kernel granted it, in bytes (Linux reports twice the usable size:
    /// its bookkeeping counts too); 0 before ``start(deliver:)``.
    public var receiveBufferBytes: Int {
        state.withLock { s in
            guard s.socket >= 0 else { return 0 }
            var size: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(s.socket, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0 ? Int(size) : 0
        }
    }

    /// The port actually bound (after binding port 0), 0 before ``start(deliver:)``.
    public var boundPort: Int { state.withLock { $0.bound?.numeric.port ?? 0 } }

    public var localAddress: String {
        guard let bound = state.withLock({ $0.bound }) else { return "\(host):\(port)" }
        let (address, port) = bound.numeric
        return "\(address):\(port)"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public func start(deliver: @escaping @Sendable (Datagram) -> Void) throws {
        let address: UDPSocketAddress
        do { address = try UDPSocketAddress(host: host, port: port, passive: true) } catch {
            throw Failure(description: "\(error)")
        }
        let socket = Glibc.socket(address.family, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // A Face Cap frame is 55 datagrams sent at once, 60 times a second: the kernel's default receive buffer
        // (208 KiB, about 270 such small datagrams with their bookkeeping) fills when this thread waits a few
        // frames for a CPU, and the kernel then drops datagrams without a word (seen: 1 028 of 33 000 on a busy
        // 2-core machine). Linux caps the request at net.core.rmem_max.
        var size = Int32(Self.requestedReceiveBuffer)
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var target = address
        let bound = withUnsafePointer(to: &target.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, address.length) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw Failure(description: "bind \(host):\(port): \(reason)")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            Glibc.close(socket)
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        state.withLock {
            $0.socket = socket
            $0.wake = (pipeEnds[0], pipeEnds[1])
            $0.bound = UDPSocketAddress.bound(to: socket)
            $0.reading = true
        }
        let wakeRead = pipeEnds[0]
        let thread = Thread { [self] in
            read(socket: socket, wake: wakeRead, deliver: deliver)
            finished.signal()
        }
        thread.name = "udp input"
        thread.start()
    }

    private func read(socket: Int32, wake: Int32, deliver: @Sendable (Datagram) -> Void) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.maximumDatagramSize + 1, alignment: 8)
        defer { buffer.deallocate() }
        var watched = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            watched[0].revents = 0
            watched[1].revents = 0
            let ready = poll(&watched, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if watched[1].revents != 0 { return }
            let events = watched[0].revents
            if events & Int16(POLLNVAL) != 0 { return }
            guard events & Int16(POLLIN) != 0 else {
                // An error queued by ICMP (port unreachable after a send) must not end the source: read it away.
                var code: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &size)
                continue
            }
            var sender = UDPSocketAddress()
            sender.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &sender.storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(socket, buffer.baseAddress, buffer.count, 0, $0, &sender.length)
                }
            }
            let arrival = MonotonicClock.now()
            if count < 0 {
                if errno == EINTR || errno == EAGAIN || errno == ECONNREFUSED { continue }
                return
            }
            // One more byte than the largest datagram was offered: a longer one would be cut, so none is.
            let (address, port) = sender.numeric
            deliver(Datagram(bytes: Array(buffer[0..<min(count, Self.maximumDatagramSize)]),
                             sender: DatagramSender(address: address, port: port), arrival: arrival))
        }
    }

    public func close() {
        let (socket, wake, reading) = state.withLock { s in
            defer { s.reading = false }
            return (s.socket, s.wake, s.reading)
        }
        guard reading else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait()
        Glibc.close(socket)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
        state.withLock { $0.socket = -1 }
    }

    deinit { close() }
}
