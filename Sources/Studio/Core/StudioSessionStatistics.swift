/// Counters of a ``StudioSession`` (Home shows them; tests assert them).
public struct StudioSessionStatistics: Sendable, Equatable {
    /// Client messages handled (parsed and dispatched, errors included).
    public var received = 0
    /// Messages that did not parse (`too_large`, `malformed_json`, `bad_message`, `unknown_type`).
    public var malformed = 0
    /// Messages over the rate limit, dropped.
    public var rateLimited = 0
    /// Control changes an instrument refused.
    public var refused = 0
    /// Clients that resumed within the retention time.
    public var resumed = 0
    /// Clients whose retention ran out.
    public var expired = 0
    public init() {}
}
