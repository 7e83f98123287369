/// A JSON value, parsed (by Horatio's `JSONReader`) and written without Foundation, so the Haptics module
/// stays portable and every malformed byte is a typed error (`JSONReadError`) instead of a trap.
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

    /// Deepest nesting of arrays and objects the parser accepts (the outermost one is level 1).
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
