import Glibc
import Synchronization

/// The last SIGINT/SIGTERM number caught, 0 when none is pending. Written from a signal handler
/// (an atomic store is async-signal-safe).
private let caughtSignal = Atomic<Int32>(0)

private let recordSignal: @convention(c) (Int32) -> Void = { number in
    caughtSignal.store(number, ordering: .relaxed)
}

/// Catches SIGINT and SIGTERM while a session runs, so that it can stop cleanly; restores the
/// previous handlers afterwards, so a second Ctrl-C during a stuck shutdown still ends the process.
struct SignalTrap: ~Copyable {
    private var previousInterrupt: __sighandler_t?
    private var previousTerminate: __sighandler_t?
    private var installed = true

    init() {
        caughtSignal.store(0, ordering: .relaxed)
        previousInterrupt = signal(SIGINT, recordSignal)
        previousTerminate = signal(SIGTERM, recordSignal)
    }

    /// The caught signal number, if any.
    var pending: Int32? {
        let number = caughtSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    mutating func restore() {
        guard installed else { return }
        installed = false
        signal(SIGINT, previousInterrupt)
        signal(SIGTERM, previousTerminate)
    }

    deinit {
        if installed {
            signal(SIGINT, previousInterrupt)
            signal(SIGTERM, previousTerminate)
        }
    }
}
