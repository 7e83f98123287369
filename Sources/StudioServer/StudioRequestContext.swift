import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The router's request context: Hummingbird's core storage and WebSocket handler, and the peer's
/// address (the access check limits token guessing per address).
public struct StudioRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection (after `/ws` upgrades, the WebSocket's): binary frames are written to it directly
    /// (``StudioBinaryWriter``).
    let channel: any Channel
    /// Holds the WebSocket handler reference until the socket ends (``releaseWebSocket()``): see ``StudioWebSocketSlot``.
    private let socketSlot = StudioWebSocketSlot()

    public var webSocket: WebSocketHandlerReference<Self> { socketSlot.reference }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The socket's handler returned: lets go of the handler reference, which holds this context (a cycle
    /// hummingbird-websocket leaves; without this every connection's context stayed in memory).
    func releaseWebSocket() { socketSlot.release() }
}
