/// A `PolySynthSettings` field out of its range: names the field, the value and the range.
public struct PolySynthSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's name as in `PolySynthSettings` (nested fields dotted, e.g. `reverb.decay`).
    public var field: String
    public var value: Double
    public var range: ClosedRange<Double>

    public init(field: String, value: Double, range: ClosedRange<Double>) {
        self.field = field
        self.value = value
        self.range = range
    }

    public var description: String {
        "\(field) must be \(Self.format(range.lowerBound))…\(Self.format(range.upperBound)), got \(Self.format(value))"
    }

    private static func format(_ x: Double) -> String {
        x.isFinite && x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : String(x)
    }
}
