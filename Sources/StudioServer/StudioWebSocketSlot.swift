import HummingbirdWebSocket
import Synchronization

/// Where a ``StudioRequestContext`` keeps Hummingbird's WebSocket handler reference, so that the studio can let
/// go of it when the socket ends.
///
/// hummingbird-websocket (2.8) stores the upgraded route's handler inside the reference as a value holding the
/// request context itself, and the context holds the reference: a retain cycle that kept every WebSocket
/// connection's context (its logger metadata, endpoint path, peer address and the reference's lock, about 1.5 KB)
/// for the life of the process. `scripts/soak studio` found it as resident memory growing with each reconnection
/// (1.55 KB per connection over 4 000 of them, none returned). The slot is the one link of that cycle the studio
/// owns: ``release()`` once the socket's handler has returned breaks it.
final class StudioWebSocketSlot: Sendable {
    private let stored = Mutex<WebSocketHandlerReference<StudioRequestContext>?>(WebSocketHandlerReference())

    /// The reference Hummingbird's router fills when `/ws` upgrades and its upgrade reads back; an empty one after
    /// ``release()`` (nothing asks then: the socket has ended).
    var reference: WebSocketHandlerReference<StudioRequestContext> {
        stored.withLock { $0 } ?? WebSocketHandlerReference()
    }

    /// Drops the reference (and with it the handler and the context it holds).
    func release() { stored.withLock { $0 = nil } }
}
