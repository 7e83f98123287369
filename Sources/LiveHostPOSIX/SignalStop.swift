import Glibc
import LiveHost
import Synchronization

/// The signal number of the first SIGINT/SIGTERM/SIGHUP, 0 while none came; written by the handler.
private let firstSignal = Atomic<Int32>(0)
/// The write end of the self-pipe the handler wakes the watcher thread through (-1 before install).
private let wakeDescriptor = Atomic<Int32>(-1)
/// "prospero: second SIGINT during shutdown; exiting now (130)\n" per signal, built before any
/// handler can run (a handler may only write bytes that already exist).
/// Indexed by signal number (0…63); empty for signals without a message.
nonisolated(unsafe) private var forcedExitMessages: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>? = nil

private let handleSignal: @convention(c) (Int32) -> Void = { number in
    // Async-signal-safe only: atomics, write(2), _exit(2).
    if firstSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged {
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(wakeDescriptor.load(ordering: .relaxed), &byte, 1)
        return
    }
    if let table = forcedExitMessages, (0..<64).contains(number) {
        let message = table[Int(number)]
        if message.count > 0 { _ = write(STDERR_FILENO, message.baseAddress, message.count) }
    }
    _exit(128 + number)
}

/// Turns SIGINT, SIGTERM and SIGHUP into a request on a ``LiveStop``, however the process was
/// started: handlers are installed with sigaction whatever the previous disposition was (a
/// background job of a non-interactive shell starts with SIGINT ignored), and SIGPIPE is ignored
/// so a closed output pipe becomes a write error instead of killing the process before its
/// note-offs. A second signal while the stop is under way ends the process at once with
/// 128 + the signal (130 for SIGINT, 143 for SIGTERM) and says so on standard error.
///
/// Install once per process, before the session starts (`SignalStop.install(stop)`); the handlers
/// stay for the life of the process.
public enum SignalStop {
    /// The signals that stop a live session.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private static let installed = Mutex<LiveStop?>(nil)

    /// Forwards the first termination signal to `stop` (from a watcher thread, since a handler may
    /// not lock). Installing again points the signals at the new stop and clears an earlier signal.
    public static func install(_ stop: LiveStop) {
        let first = installed.withLock { current -> Bool in
            defer { current = stop }
            return current == nil
        }
        firstSignal.store(0, ordering: .relaxed)
        guard first else { return }
        let table = UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>.allocate(capacity: 64)
        table.initialize(repeating: UnsafeMutableBufferPointer(start: nil, count: 0), count: 64)
        for number in signals {
            let text = "prospero: second \(LiveStopReason.signalName(number)) during shutdown; exiting now (\(128 + number))\n"
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = buffer.initialize(from: text.utf8)
            table[Int(number)] = buffer
        }
        forcedExitMessages = table
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        for d in descriptors { _ = fcntl(d, F_SETFD, FD_CLOEXEC) }
        wakeDescriptor.store(descriptors[1], ordering: .relaxed)
        let readEnd = descriptors[0]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handleSignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in signals { sigaction(number, &action, nil) }
        signal(SIGPIPE, SIG_IGN)
        // Unblock them too, in case the parent left them blocked.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        startWatcher(readEnd)
    }

    private static func startWatcher(_ readEnd: Int32) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(WatcherBox(descriptor: readEnd))
        pthread_create(&thread, nil, { raw in
            let box = Unmanaged<WatcherBox>.fromOpaque(raw!).takeRetainedValue()
            var byte: UInt8 = 0
            while true {
                let n = read(box.descriptor, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return nil }
                let number = firstSignal.load(ordering: .relaxed)
                let stop = SignalStop.installed.withLock { $0 }
                stop?.request(.signal(number == 0 ? Int32(byte) : number))
            }
        }, box.toOpaque())
        pthread_detach(thread)
    }

    /// The signal caught so far, if any (for tests and reports).
    public static var caught: Int32? {
        let n = firstSignal.load(ordering: .relaxed)
        return n == 0 ? nil : n
    }
}

private final class WatcherBox {
    let descriptor: Int32
    init(descriptor: Int32) { self.descriptor = descriptor }
}
