import CJACKLoader

/// The outcome of locking the process's current pages into RAM, so that the audio thread never
/// waits for a page to come back from swap or to be faulted in again.
///
/// Only `mlockall(MCL_CURRENT)`: pages mapped later (new allocations) are not locked, unlike
/// MCL_FUTURE, which would make every later allocation fail once the limit is reached. Lock after
/// activation, when the handler is prepared and JACK's buffers are mapped.
public struct MemoryLock: Sendable, Hashable, CustomStringConvertible {
    /// Whether the pages are locked.
    public var isLocked: Bool
    /// The soft RLIMIT_MEMLOCK in bytes; nil when unlimited.
    public var limitBytes: Int64?
    /// Bytes mapped by the process when it tried (what had to fit under the limit).
    public var mappedBytes: Int64
    /// The errno of a failed attempt (ENOMEM 12: over the limit, EPERM 1: not allowed), else 0.
    public var errorNumber: Int32

    public init(isLocked: Bool, limitBytes: Int64?, mappedBytes: Int64, errorNumber: Int32) {
        self.isLocked = isLocked
        self.limitBytes = limitBytes
        self.mappedBytes = mappedBytes
        self.errorNumber = errorNumber
    }

    /// Tries `mlockall(MCL_CURRENT)` and says why it could not.
    public static func lockCurrentPages() -> MemoryLock {
        var resident: Int64 = 0, mapped: Int64 = 0
        pj_process_memory(&resident, &mapped)
        let limit = pj_memlock_limit()
        let code = pj_lock_current_memory()
        return MemoryLock(isLocked: code == 0, limitBytes: limit == -1 ? nil : max(0, limit),
                          mappedBytes: mapped, errorNumber: code)
    }

    /// "locked (RLIMIT_MEMLOCK unlimited, 312 MiB mapped)" or "not locked: RLIMIT_MEMLOCK 8 MiB < 312 MiB mapped (ENOMEM)".
    public var description: String {
        func mib(_ bytes: Int64) -> String { "\((Double(bytes) / 1_048_576).rounded()) MiB" }
        let limit = limitBytes.map(mib) ?? "unlimited"
        if isLocked { return "locked (mlockall MCL_CURRENT; RLIMIT_MEMLOCK \(limit), \(mib(mappedBytes)) mapped)" }
        let why = errorNumber == 12 ? "ENOMEM" : errorNumber == 1 ? "EPERM" : "errno \(errorNumber)"
        return "not locked: RLIMIT_MEMLOCK \(limit) < \(mib(mappedBytes)) mapped (\(why)); raise it (ulimit -l, limits.conf @audio memlock) to lock"
    }
}
