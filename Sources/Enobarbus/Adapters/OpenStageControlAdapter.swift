/// Open Stage Control `multixy` widget: one message at the widget address with 2N numbers
/// `[x0, y0, x1, y1, …]`, y growing upward (from the bottom), in the widget's `rangeX`/`rangeY`.
///
/// Point k goes to touch slot k (k < 4). When the widget also sends touch state
/// (`<address>/touch` with `[pointIndex, 1|0]`), only points currently held are reported,
/// and a release ends the slot; without touch state every point is reported as held.
public struct OpenStageControlAdapter: Sendable {
    /// The widget address(es), e.g. `/multixy_1` (the default for a widget with id `multixy_1`).
    public var address: OSCAddressPattern
    public var rangeX: ClosedRange<Float>
    public var rangeY: ClosedRange<Float>
    private var touchStateSeen = false
    private var held = [false, false, false, false]

    public init(address: OSCAddressPattern = try! OSCAddressPattern("/multixy*"),
                rangeX: ClosedRange<Float> = 0...1, rangeY: ClosedRange<Float> = 0...1) {
        self.address = address
        self.rangeX = rangeX
        self.rangeY = rangeY
    }

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        let a = message.arguments
        if message.address.hasSuffix("/touch"), address.matches(String(message.address.dropLast(6))) {
            guard a.count == 2, let index = a[0].intValue, let down = a[1].floatValue else {
                return .rejected("Open Stage Control touch state needs [pointIndex, 1|0]")
            }
            touchStateSeen = true
            guard (0...3).contains(index) else { return .accepted }
            held[index] = down >= 0.5
            if !held[index] { frame.endTouch(slot: index) }
            return .accepted
        }
        guard address.matches(message.address) else { return nil }
        guard !a.isEmpty, a.count % 2 == 0 else { return .rejected("Open Stage Control multixy needs 2N numbers") }
        var points: [(Float, Float)] = []
        for k in stride(from: 0, to: a.count, by: 2) {
            guard let x = a[k].floatValue, let y = a[k + 1].floatValue else {
                return .rejected("Open Stage Control multixy value \(k) is not a number")
            }
            points.append((x, y))
        }
        let spanX = rangeX.upperBound - rangeX.lowerBound, spanY = rangeY.upperBound - rangeY.lowerBound
        guard spanX != 0, spanY != 0 else { return .rejected("Open Stage Control range is empty") }
        for (k, p) in points.prefix(4).enumerated() where !touchStateSeen || held[k] {
            frame.setTouch(slot: k, x: (p.0 - rangeX.lowerBound) / spanX, y: 1 - (p.1 - rangeY.lowerBound) / spanY)
        }
        return .accepted
    }
}
