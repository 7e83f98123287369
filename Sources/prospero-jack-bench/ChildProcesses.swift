import Glibc

/// The processes the bench started (the commands it measures), so that SIGINT, SIGTERM and SIGHUP stop them
/// before the bench ends: Ctrl-C or a kill of `scripts/bench/live` leaves nothing running. Each child also gets
/// SIGTERM from the kernel if the bench dies without a word (`setpriv --pdeathsig`, see ``ProsperoRun``).
///
/// The slots are plain memory read by a signal handler, which may call only async-signal-safe functions.
enum ChildProcesses {
    private static let capacity = 16
    private nonisolated(unsafe) static let slots: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        p.initialize(repeating: 0, count: capacity)
        return p
    }()

    static func add(_ pid: Int32) {
        for i in 0..<capacity where slots[i] == 0 {
            slots[i] = pid
            return
        }
    }

    static func remove(_ pid: Int32) {
        for i in 0..<capacity where slots[i] == pid { slots[i] = 0 }
    }

    /// Installs the handlers: each child gets SIGTERM, has 3 s to end, then SIGKILL; the bench exits 128 + the signal.
    static func stopOnSignals() {
        _ = slots
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                for i in 0..<ChildProcesses.capacity where ChildProcesses.slots[i] > 0 { kill(ChildProcesses.slots[i], SIGTERM) }
                var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                for _ in 0..<60 {
                    var running = false
                    for i in 0..<ChildProcesses.capacity where ChildProcesses.slots[i] > 0 {
                        if kill(ChildProcesses.slots[i], 0) == 0 && waitpid(ChildProcesses.slots[i], nil, WNOHANG) == 0 { running = true }
                    }
                    if !running { break }
                    nanosleep(&pause, nil)
                }
                for i in 0..<ChildProcesses.capacity where ChildProcesses.slots[i] > 0 { kill(ChildProcesses.slots[i], SIGKILL) }
                _exit(128 + received)
            }
        }
    }
}
