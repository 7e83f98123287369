/// One WebSocket frame the server sends to one connection.
public enum StudioOutgoing: Equatable, Sendable {
    case text(String)
    case binary([UInt8])
}
