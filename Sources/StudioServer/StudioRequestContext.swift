import Hummingbird
import NIOCore

/// The router's request context: Hummingbird's core storage and the peer's address (the access check limits token
/// guessing per address).
public struct StudioRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
