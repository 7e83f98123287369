/// A small JSON value: what controls, states and frames carry between the studio and its pages.
public enum StudioValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([StudioValue])
    case object([String: StudioValue])
}
