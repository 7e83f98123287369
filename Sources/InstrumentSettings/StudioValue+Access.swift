extension StudioValue {
    /// The number, or nil for any other kind.
    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var object: [String: StudioValue]? { if case .object(let o) = self { return o } else { return nil } }
    public var array: [StudioValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var isNull: Bool { self == .null }

    /// A finite number in `range`, else a typed error naming `path` (what controllers validate with).
    public func number(in range: ClosedRange<Double>, at path: String) throws(StudioError) -> Double {
        guard let n = number, n.isFinite else { throw .badValue(path, expected: "a number") }
        guard range.contains(n) else { throw .outOfRange(path, range: "\(range.lowerBound)…\(range.upperBound)") }
        return n
    }

    /// A string among `choices`, else a typed error naming `path`.
    public func choice(_ choices: [String], at path: String) throws(StudioError) -> String {
        guard let s = string else { throw .badValue(path, expected: "a string") }
        guard choices.contains(s) else { throw .outOfRange(path, range: choices.joined(separator: ", ")) }
        return s
    }

    /// A boolean, else a typed error naming `path`.
    public func boolean(at path: String) throws(StudioError) -> Bool {
        guard let b = bool else { throw .badValue(path, expected: "true or false") }
        return b
    }
}

extension StudioValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: StudioValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, StudioValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
