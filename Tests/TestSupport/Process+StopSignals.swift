import Foundation
import Glibc

extension Process {
    /// `run()`, with SIGINT, SIGTERM and SIGHUP (the signals tests stop their children with) unblocked in
    /// the child.
    ///
    /// A child inherits the signal mask of the thread that spawns it, and swift-testing runs tests on
    /// Dispatch's worker threads, which block nearly every signal. A peer started from there never saw the
    /// signal meant to stop it: `jack_midi_dump` sat out the timeout until SIGKILL, with its JACK client left
    /// open and its unprinted output lost; the browser scripts passed the mask on to their own children,
    /// where an unclosed client stalls their synchronous jackd. So this thread unblocks the three for the
    /// spawn and restores its own mask after.
    public func runWithStopSignalsUnblocked() throws {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
