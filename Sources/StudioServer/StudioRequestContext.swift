import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The router's request context: Hummingbird's core storage and WebSocket handler, and the peer's
/// address (the access check limits token guessing per address).
public struct StudioRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }
}
