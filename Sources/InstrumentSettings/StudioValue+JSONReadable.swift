import Horatio

extension StudioValue: JSONReadable {
    public static func jsonNull() -> StudioValue { .null }
    public static func jsonBool(_ value: Bool) -> StudioValue { .bool(value) }
    public static func jsonNumber(_ value: Double) -> StudioValue { .number(value) }
    public static func jsonString(_ value: String) -> StudioValue { .string(value) }
    public static func jsonArray(_ elements: [StudioValue]) -> StudioValue { .array(elements) }
    /// Keys are unique: ``StudioValue/init(json:limits:)`` has the reader refuse a repeated one.
    public static func jsonObject(_ members: [(key: String, value: StudioValue)]) -> StudioValue {
        var object: [String: StudioValue] = [:]
        object.reserveCapacity(members.count)
        for member in members where object[member.key] == nil { object[member.key] = member.value }
        return .object(object)
    }
}
