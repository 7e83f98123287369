/// An input control port's range, default, unit and style, as read from the type that owns the parameter.
public struct LV2Control: Sendable, Hashable {
    /// How a host draws and steps the control.
    public enum Style: Sendable, Hashable {
        case continuous
        /// Logarithmic (frequencies, release times).
        case logarithmic
        /// Whole numbers only.
        case integer
        /// 0 = off, 1 = on.
        case toggle
        /// Whole numbers 0…labels.count − 1, each with its label (`lv2:enumeration` scale points).
        case enumeration([String])
    }

    public var minimum: Float
    public var maximum: Float
    public var defaultValue: Float
    public var unit: LV2Unit?
    public var style: Style

    /// `defaultValue` is clamped into `minimum...maximum`.
    public init(range: ClosedRange<Float>, defaultValue: Float, unit: LV2Unit? = nil, style: Style = .continuous) {
        minimum = range.lowerBound
        maximum = range.upperBound
        self.defaultValue = min(max(defaultValue, range.lowerBound), range.upperBound)
        self.unit = unit
        self.style = style
    }

    /// A control with a `Double` range (the poly synth's and Hecate's types declare Doubles).
    public init(range: ClosedRange<Double>, defaultValue: Double, unit: LV2Unit? = nil, style: Style = .continuous) {
        self.init(range: Float(range.lowerBound)...Float(range.upperBound), defaultValue: Float(defaultValue), unit: unit, style: style)
    }

    /// An on/off switch.
    public static func toggle(_ on: Bool) -> LV2Control {
        LV2Control(range: Float(0)...1, defaultValue: on ? 1 : 0, style: .toggle)
    }

    /// A choice among `labels`, the value being the label's index.
    public static func enumeration(_ labels: [String], defaultIndex: Int) -> LV2Control {
        LV2Control(range: Float(0)...Float(max(0, labels.count - 1)), defaultValue: Float(defaultIndex), style: .enumeration(labels))
    }

    /// `value` clamped into the range, the default when not finite, rounded for whole-number styles.
    @inline(__always)
    public func clamp(_ value: Float) -> Float {
        guard value.isFinite else { return defaultValue }
        let v = min(max(value, minimum), maximum)
        switch style {
        case .continuous, .logarithmic: return v
        case .integer, .toggle, .enumeration: return v.rounded()
        }
    }
}
