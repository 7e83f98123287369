import Horatio
import InstrumentSettings

/// Limits and timings of a ``StudioSession``.
public struct StudioSessionOptions: Sendable, Equatable {
    /// Seconds a disconnected client's state (id, subscriptions, missed messages) is kept for its return.
    public var retention = 60.0
    /// Messages kept for a disconnected client; past this it gets the whole state instead of a replay.
    public var maximumPending = 256
    /// Per-client rate limit (messages per second) and burst.
    public var rate = 200.0
    public var burst = 400.0
    /// JSON limits for every client message.
    public var parser = JSONReader.Limits.studioMessage
    /// Clients (connected or retained) at most; past this a new one takes the place of the retained client that left
    /// first, and is refused only when every one is connected.
    public var maximumClients = 64
    /// Connected clients one peer (one address, as the edge counts them) may hold at most, so that no single peer
    /// can fill ``maximumClients``.
    public var maximumClientsPerPeer = 32

    public init() {}
}
