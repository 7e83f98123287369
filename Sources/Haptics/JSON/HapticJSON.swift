/// A JSON value, parsed and written without Foundation, so the Haptics module stays portable and its
/// reader answers every malformed byte with a typed error (`HapticJSONError`) instead of trapping.
///
/// Objects keep their keys in file order (AHAP writers and diff tools like stable order); numbers are
/// `Double`. Nesting is limited to `maximumDepth` so hostile input cannot exhaust the stack.
public enum HapticJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([HapticJSON])
    case object([(key: String, value: HapticJSON)])

    /// Deepest nesting of arrays and objects the parser accepts.
    public static let maximumDepth = 64

    public static func == (a: HapticJSON, b: HapticJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): for (k, v) in o { hasher.combine(k); hasher.combine(v) }
        }
    }

    /// The value for `key` when this is an object (the first one if a key repeats).
    public subscript(key: String) -> HapticJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The number, when this is a number.
    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    /// The string, when this is a string.
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The elements, when this is an array.
    public var array: [HapticJSON]? { if case .array(let a) = self { return a } else { return nil } }
    /// The boolean, when this is `true` or `false`.
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// True when this is an object.
    public var isObject: Bool { if case .object = self { return true } else { return false } }
}

/// Why bytes are not JSON, with the byte offset where the parser stopped.
public struct HapticJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        case notUTF8
        case unexpectedEnd
        case unexpectedCharacter(UInt8)
        case badNumber
        case badEscape
        case tooDeep
        case trailingContent
    }

    public var offset: Int
    public var problem: Problem

    public init(offset: Int, _ problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .notUTF8: what = "text is not UTF-8"
        case .unexpectedEnd: what = "JSON ends too early"
        case .unexpectedCharacter(let c): what = "unexpected character \(c < 0x20 || c > 0x7E ? "byte \(c)" : String(UnicodeScalar(c)).debugDescription)"
        case .badNumber: what = "malformed number"
        case .badEscape: what = "malformed string escape"
        case .tooDeep: what = "nested deeper than \(HapticJSON.maximumDepth) levels"
        case .trailingContent: what = "content after the JSON value"
        }
        return "JSON byte \(offset): \(what)"
    }
}
