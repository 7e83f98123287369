/// OSC packets in, lifecycle events out: an `OSCFrameAssembler` feeding a `SourceLifecycle`.
///
/// This is the whole input path below the socket. The receiver's thread (or a replay) calls
/// `ingest(_:at:)` per packet and `advance(to:)` on a timer (e.g. every 5 ms) so quiet sender
/// frames close and silent sources time out; the events go to instruments (note-offs and fades on `.lost`).
///
///     var input = TrackingInput()
///     for event in input.ingest(received.packet, at: received.time) { ring.push(event) }
public struct TrackingInput: Sendable {
    public var assembler: OSCFrameAssembler
    public var lifecycle: SourceLifecycle

    public init(assembler: OSCFrameAssembler = OSCFrameAssembler(), lifecycle: SourceLifecycle = SourceLifecycle()) {
        self.assembler = assembler
        self.lifecycle = lifecycle
    }

    /// Times out stale sources at `time`, then applies the packet's frames.
    public mutating func ingest(_ packet: OSCPacket, at time: Double) -> [SourceEvent] {
        lifecycle.ingest(assembler.ingest(packet, at: time), at: time)
    }

    /// Closes the sender frames quiet for the assembler's `quietInterval`, then loses the sources
    /// silent for longer than the lifecycle's timeout.
    public mutating func advance(to time: Double) -> [SourceEvent] {
        lifecycle.ingest(assembler.flush(now: time), at: time) + lifecycle.advance(to: time)
    }
}
