import CJACKLoader
import Enobarbus
import LiveHost
import Synchronization

/// JACK's frame clock for live input (``LiveFrameClock``): maps a datagram's arrival time
/// (`MonotonicClock`) to the JACK frame time it is due at, its arrival frame plus a fixed input delay,
/// measured from the start of the period the audio thread runs (``InputTiming``; the monotonic clock
/// and the audio thread's clock are read together to bring the arrival onto the latter).
///
/// A ``LiveSession`` attaches its client while it plays (again after reconnecting) and detaches it
/// before closing it; while detached, events are due at once. Any thread.
public final class JACKInputClock: LiveFrameClock, @unchecked Sendable {
    /// The fixed delay from an input event's arrival to its sample in the output.
    public enum Delay: Sendable, Hashable, CustomStringConvertible {
        /// This many frames (≥ 0).
        case frames(Int)
        /// This many periods of the server attached to (≥ 0).
        case periods(Int)
        /// This many periods and this many frames more (each ≥ 0).
        case periodsAndFrames(periods: Int, frames: Int)

        /// The default: one period, the least that can keep a frame that arrives just after a period's start
        /// on time (the audio thread takes input at period starts), and ``defaultMarginFrames`` for the time
        /// the input threads take to hand a frame to the audio thread (measured, docs/latency.md).
        public static let standard = Delay.periodsAndFrames(periods: 1, frames: defaultMarginFrames)
        /// Frames the default delay adds to its period (at 48 kHz; the same count at any rate).
        public static let defaultMarginFrames = 16

        /// The delay in frames on a server with `period` frames.
        public func frames(period: Int) -> Int {
            switch self {
            case .frames(let n): return max(0, n)
            case .periods(let n): return max(0, n) * max(0, period)
            case .periodsAndFrames(let p, let n): return max(0, p) * max(0, period) + max(0, n)
            }
        }

        public var description: String {
            switch self {
            case .frames(let n): return "\(n) frames"
            case .periods(let n): return n == 1 ? "1 period" : "\(n) periods"
            case .periodsAndFrames(let p, 0): return Delay.periods(p).description
            case .periodsAndFrames(let p, let n): return "\(Delay.periods(p)) + \(n) frames"
            }
        }
    }

    /// The delay as asked (default ``Delay/standard``).
    public let delay: Delay
    /// The attached client's latest period (nil while detached), its sample rate and the delay in frames.
    private struct Attachment: @unchecked Sendable {
        var periods: JACKPeriodClock?
        var sampleRate = 48_000.0
        var delay = 0
    }
    private let attachment = Mutex(Attachment())
    /// Where arrivals and periods are stamped: the system's clocks live, simulated ones in tests.
    private let clocks: Clocks

    /// - Parameter delay: from an event's arrival to its sample in the output. At least one period
    ///   turns the input thread's jitter into a fixed latency; less makes events late (applied at the
    ///   next period's start, counted).
    public convenience init(delay: Delay = .standard) {
        self.init(delay: delay, clocks: .system)
    }

    /// A clock that reads `clocks` instead of the system's (a simulated server's periods and arrivals).
    package init(delay: Delay, clocks: Clocks) {
        self.delay = delay
        self.clocks = clocks
    }

    /// The delay in frames on a server with `period` frames.
    public func delay(forPeriod period: Int) -> Int { delay.frames(period: period) }

    /// Maps arrivals to `client`'s periods from now on.
    func attach(_ client: JACKClient) {
        guard let periods = client.periodClock else { return detach() }
        attach(periods: periods, sampleRate: Double(client.sampleRate), period: client.bufferSize)
    }

    /// Maps arrivals to the periods `periods` publishes, `period` frames each at `sampleRate` Hz, from now on
    /// (a client's own clock, or a simulated server's).
    package func attach(periods: JACKPeriodClock, sampleRate: Double, period: Int) {
        let delay = delay(forPeriod: period)
        attachment.withLock { $0 = Attachment(periods: periods, sampleRate: sampleRate, delay: delay) }
    }

    /// Stops using the client (before it closes).
    func detach() {
        attachment.withLock { $0.periods = nil }
    }

    public func dueFrame(forArrival arrival: Double) -> UInt32? {
        let (periods, rate, delay) = attachment.withLock { ($0.periods, $0.sampleRate, $0.delay) }
        guard let period = periods?.latest() else { return nil }
        // The arrival on the audio thread's clock: as long before its "now" as before MonotonicClock's.
        let age = clocks.host() - arrival
        let now = Double(clocks.audio()) * 1e-9
        return InputTiming.dueFrame(arrival: now - age, referenceTime: Double(period.nanoseconds) * 1e-9,
                                    referenceFrame: period.frame, sampleRate: rate, delay: delay)
    }
}
