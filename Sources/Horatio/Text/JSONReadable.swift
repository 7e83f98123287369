/// A value `JSONReader` can build: one constructor per kind of JSON value, called as each value closes.
/// Haptics' order-keeping `HapticJSON` and the studio's `StudioValue` are both read this way.
public protocol JSONReadable {
    static func jsonNull() -> Self
    static func jsonBool(_ value: Bool) -> Self
    /// Always finite (the reader refuses numbers that overflow `Double`).
    static func jsonNumber(_ value: Double) -> Self
    static func jsonString(_ value: String) -> Self
    static func jsonArray(_ elements: [Self]) -> Self
    /// Members in document order; a key repeats only when the limits allow duplicate keys.
    static func jsonObject(_ members: [(key: String, value: Self)]) -> Self
}
