import Foundation
import Glibc

extension Process {
    /// The signals tests stop their children with.
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// `run()`, with SIGINT, SIGTERM and SIGHUP unblocked in the child.
    ///
    /// A child inherits the signal mask of the thread that spawns it, and swift-testing runs tests on
    /// Dispatch's worker threads, which block nearly every signal. A peer started from there never saw the
    /// SIGINT or SIGTERM meant to stop it: `jack_midi_dump` sat out the timeout until SIGKILL, which left
    /// its JACK client unclosed and stalled a synchronous server for 20 s. So this thread unblocks them
    /// for the spawn and restores its own mask after.
    public func runWithStopSignalsUnblocked() throws {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.stopSignals { sigaddset(&unblock, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
