import Horatio

/// One source's state as the router reads it: where it is and how it is shaped, all 0…1.
///
/// | Field | Hands | Touches |
/// |---|---|---|
/// | `x`, `y` | palm centre (mean of wrist and the four finger MCPs), 0…1, origin top-left, y down | touch point |
/// | `expression` | extended fingers ÷ 5 | pressure |
/// | `depth` | palm size or pinch (`MIDIRouterSettings.DepthSource`) | pressure |
///
/// Higher on the screen (smaller y) plays higher notes.
public struct RouterInput: Sendable, Hashable {
    public var source: InputSourceID
    public var x: Double
    public var y: Double
    public var expression: Double
    public var depth: Double

    public init(source: InputSourceID, x: Double, y: Double, expression: Double = 1, depth: Double = 0) {
        self.source = source
        self.x = x
        self.y = y
        self.expression = expression
        self.depth = depth
    }

    /// The vertical position as the zones read it: 0 at the bottom edge, 1 at the top.
    @inlinable public var height: Double { 1 - y }
}
