import Foundation

/// How long processes' threads were ready to run but kept waiting for a CPU (Linux schedstat: the
/// second field of /proc/PID/task/TID/schedstat, nanoseconds). A timing measurement across a window in
/// which the code under test waited milliseconds for a CPU measures the machine's load, not the code.
enum RunQueueWait {
    /// Every thread's run-queue wait so far (nanoseconds), by "pid/tid".
    struct Snapshot {
        var waits: [String: Int]
    }

    /// The run-queue wait of every thread of `pids` so far; nil where schedstat is missing.
    static func snapshot(_ pids: [Int32]) -> Snapshot? {
        var waits: [String: Int] = [:]
        for pid in pids {
            let directory = "/proc/\(pid)/task"
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
            for task in tasks {
                guard let text = try? String(contentsOfFile: "\(directory)/\(task)/schedstat", encoding: .utf8) else { continue }
                let fields = text.split(separator: " ")
                guard fields.count >= 2, let wait = Int(fields[1]) else { return nil }
                waits["\(pid)/\(task)"] = wait
            }
        }
        return Snapshot(waits: waits)
    }

    /// The run-queue wait of `pids`' threads since `before` (nanoseconds): per thread, so that a thread that
    /// ended in between (the test runner's own come and go) does not take its whole history off the sum; a thread
    /// that started in between counts all of its wait.
    static func waited(_ pids: [Int32], since before: Snapshot) -> Int? {
        guard let now = snapshot(pids) else { return nil }
        return now.waits.reduce(0) { sum, entry in sum + max(0, entry.value - (before.waits[entry.key] ?? 0)) }
    }
}
