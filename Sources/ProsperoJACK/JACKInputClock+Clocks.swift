import CJACKLoader
import Enobarbus

extension JACKInputClock {
    /// The two clocks an input event crosses: the host's, on which the UDP edge stamps arrivals, and the
    /// audio thread's, on which each period's start is stamped (``JACKPeriodClock``). They need not share an
    /// origin: an arrival is carried over by its age, read on the host's clock, so only their rates must agree.
    package struct Clocks: Sendable {
        /// Now on the host's clock, seconds (`MonotonicClock` live).
        package var host: @Sendable () -> Double
        /// Now on the audio thread's clock, nanoseconds (`CLOCK_MONOTONIC` live).
        package var audio: @Sendable () -> UInt64

        package init(host: @escaping @Sendable () -> Double, audio: @escaping @Sendable () -> UInt64) {
            self.host = host
            self.audio = audio
        }

        /// The clocks the live edges stamp with.
        package static let system = Clocks(host: { MonotonicClock.now() }, audio: { pj_monotonic_nanoseconds() })
    }
}
