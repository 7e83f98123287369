import Horatio

extension HapticJSON: JSONReadable {
    /// Parses one JSON value (RFC 8259) from UTF-8 bytes; whitespace may surround it. Repeated keys are
    /// kept, in file order; arrays and objects nest at most `maximumDepth` levels.
    public static func parse(_ bytes: [UInt8]) throws(JSONReadError) -> HapticJSON {
        try JSONReader.read(bytes, limits: JSONReader.Limits(maximumDepth: maximumDepth))
    }

    /// Parses one JSON value from text.
    public static func parse(_ text: String) throws(JSONReadError) -> HapticJSON { try parse(Array(text.utf8)) }

    public static func jsonNull() -> HapticJSON { .null }
    public static func jsonBool(_ value: Bool) -> HapticJSON { .bool(value) }
    public static func jsonNumber(_ value: Double) -> HapticJSON { .number(value) }
    public static func jsonString(_ value: String) -> HapticJSON { .string(value) }
    public static func jsonArray(_ elements: [HapticJSON]) -> HapticJSON { .array(elements) }
    public static func jsonObject(_ members: [(key: String, value: HapticJSON)]) -> HapticJSON { .object(members) }
}
