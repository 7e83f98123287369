/// What an adapter did with a message whose address it recognised.
public enum OSCAdapterResult: Sendable, Hashable {
    case accepted
    /// The address was the adapter's but the arguments were wrong; the reason says how.
    case rejected(String)
}
