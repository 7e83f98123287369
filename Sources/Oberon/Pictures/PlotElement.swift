/// One thing drawn in a `PlotDocument`, in pixels from the top-left corner.
public enum PlotElement: Sendable, Hashable {
    /// A filled rectangle.
    case rectangle(x: Double, y: Double, width: Double, height: Double, color: PlotColor)
    /// A polyline `lineWidth` pixels wide.
    case polyline(points: [PlotPoint], color: PlotColor, lineWidth: Double)
    /// Text in the bitmap font at `scale` (1 = 7 px capitals), `x` at its `anchor`, `y` at its top.
    case text(String, x: Double, y: Double, color: PlotColor, scale: Int, anchor: PlotTextAnchor)
    /// A raster image stretched over the rectangle (nearest neighbour).
    case image(RGBAImage, x: Double, y: Double, width: Double, height: Double)
}

/// A point in pixels.
public struct PlotPoint: Sendable, Hashable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// Where a text's `x` sits.
public enum PlotTextAnchor: String, Sendable, Hashable {
    case start, middle, end
}
