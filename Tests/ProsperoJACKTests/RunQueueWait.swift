import Foundation

/// How long processes' threads were ready to run but kept waiting for a CPU (Linux schedstat: the
/// second field of /proc/PID/task/TID/schedstat, nanoseconds). A timing measurement across a window in
/// which the code under test waited milliseconds for a CPU measures the machine's load, not the code.
enum RunQueueWait {
    /// Total run-queue wait of every thread of `pids` so far (nanoseconds); nil where schedstat is missing.
    static func total(_ pids: [Int32]) -> Int? {
        var sum = 0
        for pid in pids {
            let directory = "/proc/\(pid)/task"
            guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
            for task in tasks {
                guard let text = try? String(contentsOfFile: "\(directory)/\(task)/schedstat", encoding: .utf8) else { continue }
                let fields = text.split(separator: " ")
                guard fields.count >= 2, let wait = Int(fields[1]) else { return nil }
                sum += wait
            }
        }
        return sum
    }
}
