import Foundation
import ProsperoJACK

/// The JACK server a bench runs on (one per process: libjack keeps per-process state for one server) and what
/// the bench runs on it: its name, its jackd's pid (whose threads' CPU wait counts against an event), the
/// `prospero` executable, and the period and rate read from the server.
struct BenchServer {
    var name: String
    var jackdPID: Int32?
    var prospero: URL
    var period: Int
    var sampleRate: Int
    var isRealtime: Bool

    init(name: String, jackdPID: Int32?, prospero: URL) throws {
        let status: JACKServerStatus
        do {
            status = try JACKServerStatus.query(serverName: name, clientName: "BenchQuery")
        } catch {
            throw BenchFailure("no JACK server \(name): \(error) (scripts/bench/live starts one)")
        }
        guard status.sampleRate == Bench.sampleRate else {
            throw BenchFailure("the server runs at \(status.sampleRate) Hz; the targets are in frames at \(Bench.sampleRate) Hz")
        }
        self.name = name
        self.jackdPID = jackdPID
        self.prospero = prospero
        period = status.bufferSize
        sampleRate = status.sampleRate
        isRealtime = status.isRealtime
    }

    /// The default input delay on this server (`--input-delay`'s default), frames.
    var defaultInputDelay: Int { JACKInputClock.Delay.standard.frames(period: period) }
}
