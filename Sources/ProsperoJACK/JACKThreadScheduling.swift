/// A thread's scheduling policy and priority (pthread_getschedparam).
public struct JACKThreadScheduling: Sendable, Hashable, CustomStringConvertible {
    /// SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, SCHED_BATCH 3, SCHED_IDLE 5.
    public var policy: Int
    /// 1…99 for the real-time policies, 0 otherwise.
    public var priority: Int

    public init(policy: Int, priority: Int) {
        self.policy = policy
        self.priority = priority
    }

    /// Whether the policy is a real-time one (FIFO or round-robin).
    public var isRealtime: Bool { policy == 1 || policy == 2 }

    /// "SCHED_FIFO priority 70", "SCHED_OTHER" …
    public var description: String {
        let names = [0: "SCHED_OTHER", 1: "SCHED_FIFO", 2: "SCHED_RR", 3: "SCHED_BATCH", 5: "SCHED_IDLE", 6: "SCHED_DEADLINE"]
        let name = names[policy] ?? "policy \(policy)"
        return isRealtime ? "\(name) priority \(priority)" : name
    }
}
